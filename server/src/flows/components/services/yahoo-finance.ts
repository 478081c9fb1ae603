import type { ParamSpec } from "../../../platform/param-spec";
import type { ComponentContext, ComponentDefinition, ComponentOutput } from "../../component";
import { DESCRIPTION, INPUT_VARIABLES } from "../../params";
import { answerJson, fetchOutside, inputText, malformedAnswer, type OutsideAnswer, recordsTable, statusError, vendorBase, vendorError } from "../outside-service";
import {valueAt, keyValueLines, textIn, vendorFailure } from "./vendor";
import { isPlainObject } from "../../../platform/plain-object";

/**
 * Yahoo Finance's JSON endpoints, which yfinance (RAGFlow's library) reads:
 * - quoteSummary (query2.finance.yahoo.com/v10/finance/quoteSummary/<ticker>?modules=…) for the company's
 *   profile, key statistics, calendar, filings and statements. Yahoo wants a session cookie and its "crumb":
 *   the cookie is set by fc.yahoo.com, the crumb read from /v1/test/getcrumb with it (as yfinance does);
 * - chart (/v8/finance/chart/<ticker>?range=1mo&interval=1d) for the last month's prices (yfinance's history());
 * - search (/v1/finance/search?q=<ticker>&newsCount=…) for the news.
 * A local server standing in for Yahoo serves every path, the cookie's included. No key.
 */

const NAME = "YahooFinance";
const QUERY_API = "https://query2.finance.yahoo.com";
const COOKIE_API = "https://fc.yahoo.com";
const USER_AGENT = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const NEWS_COUNT = 10;

/** RAGFlow v0.14's toggles and defaults (info and news on). */
const TOGGLES: [key: string, fallback: boolean][] = [
  ["info", true],
  ["history", false],
  ["count", false],
  ["financials", false],
  ["income_stmt", false],
  ["balance_sheet", false],
  ["cash_flow_statement", false],
  ["news", true],
];

const PARAMS: ParamSpec[] = [DESCRIPTION, INPUT_VARIABLES, ...TOGGLES.map(([key, fallback]): ParamSpec => ({ key, type: "boolean", label: `flow.components.${NAME}.params.${key}`, default: fallback }))];

/** The quoteSummary modules behind each toggle, each with the section title it is shown under (RAGFlow's). */
const MODULES: Record<string, [module: string, section: string][]> = {
  info: [
    ["assetProfile", "info"],
    ["price", "info"],
    ["summaryDetail", "info"],
    ["financialData", "info"],
  ],
  count: [["defaultKeyStatistics", "count"]],
  financials: [
    ["calendarEvents", "calendar"],
    ["secFilings", "secFilings"],
  ],
  income_stmt: [
    ["incomeStatementHistory", "incomeStatement"],
    ["incomeStatementHistoryQuarterly", "quarterlyIncomeStatement"],
  ],
  balance_sheet: [
    ["balanceSheetHistory", "balanceSheet"],
    ["balanceSheetHistoryQuarterly", "quarterlyBalanceSheet"],
  ],
  cash_flow_statement: [
    ["cashflowStatementHistory", "cashFlow"],
    ["cashflowStatementHistoryQuarterly", "quarterlyCashFlow"],
  ],
};

/** Yahoo writes numbers as `{raw, fmt}`: the formatted text is what a reader wants. */
function plain(value: unknown): unknown {
  if (isPlainObject(value)) {
    if ("fmt" in value || "raw" in value) return value.fmt ?? value.longFmt ?? value.raw ?? "";
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return Array.isArray(value) ? value.map(plain) : value;
}

/** A module's text: its rows as a table when it holds a list (statements, filings), else its fields. */
function moduleText(module: Record<string, unknown>): string {
  const list = Object.values(module).find((value) => Array.isArray(value) && value.every(isPlainObject)) as Record<string, unknown>[] | undefined;
  if (list) return recordsTable(list.map((row) => plain(row) as Record<string, unknown>).map(({ maxAge: _maxAge, ...row }) => row));
  const { maxAge: _maxAge, ...fields } = plain(module) as Record<string, unknown>;
  return keyValueLines(fields).join("\n");
}

function yahooJson(answer: OutsideAnswer, root: string, ticker: string): Record<string, unknown> {
  const body: unknown = answerJson(answer, NAME);
  const node = isPlainObject(body) ? body[root] : undefined;
  // Yahoo answers an unknown ticker with 404 and `{<root>: {result: null, error: {code: "Not Found", description}}}`.
  if (isPlainObject(node) && isPlainObject(node.error)) {
    if (node.error.code === "Not Found") throw vendorFailure(`flow.components.${NAME}.errors.notFound`, { ticker });
    throw vendorError(NAME, String(node.error.description ?? node.error.code ?? ""));
  }
  if (answer.status !== 200) throw statusError(NAME, answer.status);
  if (!isPlainObject(body)) throw malformedAnswer(NAME);
  return body;
}

/** yfinance's session: the cookie fc.yahoo.com sets, and the crumb Yahoo gives for it. */
async function session(context: ComponentContext): Promise<{ cookie: string; crumb: string }> {
  const first = await fetchOutside(context, { service: NAME, url: `${vendorBase(context, NAME, COOKIE_API)}/`, headers: { "user-agent": USER_AGENT } });
  const cookie = first.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const answer = await fetchOutside(context, { service: NAME, url: `${vendorBase(context, NAME, QUERY_API)}/v1/test/getcrumb`, headers: { "user-agent": USER_AGENT, cookie } });
  const crumb = answer.text.trim();
  if (answer.status !== 200 || !crumb || crumb.startsWith("<") || crumb.startsWith("{")) throw statusError(NAME, answer.status, crumb.slice(0, 200));
  return { cookie, crumb };
}

export const yahooFinance: ComponentDefinition = {
  name: NAME,
  category: "data",
  icon: "LuChartCandlestick",
  params: PARAMS,
  needs: ["internet"],
  async run(context): Promise<ComponentOutput> {
    const ticker = inputText(context, "").replace(/\s+/g, "").toUpperCase();
    if (!ticker) return { content: "" };
    const on = (key: string) => context.params[key] === true;
    const base = vendorBase(context, NAME, QUERY_API);
    const headers = { "user-agent": USER_AGENT, accept: "application/json" };
    const title = (section: string) => textIn(context, `flow.components.${NAME}.sections.${section}`);
    const sections: { section: string; text: string }[] = [];

    const modules = Object.entries(MODULES).flatMap(([toggle, list]) => (on(toggle) ? list : []));
    if (modules.length > 0) {
      const { cookie, crumb } = await session(context);
      const url = new URL(`${base}/v10/finance/quoteSummary/${encodeURIComponent(ticker)}`);
      url.searchParams.set("modules", modules.map(([module]) => module).join(","));
      url.searchParams.set("crumb", crumb);
      const body = yahooJson(await fetchOutside(context, { service: NAME, url: url.href, headers: { ...headers, cookie } }), "quoteSummary", ticker);
      const result = valueAt(body, ["quoteSummary", "result", 0]);
      if (!isPlainObject(result)) throw malformedAnswer(NAME);
      for (const [module, section] of modules) {
        const text = isPlainObject(result[module]) ? moduleText(result[module]) : "";
        const same = sections.find((s) => s.section === section);
        if (same) same.text = [same.text, text].filter(Boolean).join("\n");
        else sections.push({ section, text });
      }
    }
    if (on("history")) {
      const url = new URL(`${base}/v8/finance/chart/${encodeURIComponent(ticker)}`);
      url.searchParams.set("range", "1mo");
      url.searchParams.set("interval", "1d");
      const body = yahooJson(await fetchOutside(context, { service: NAME, url: url.href, headers }), "chart", ticker);
      const chart = valueAt(body, ["chart", "result", 0]);
      const quote = valueAt(chart, ["indicators", "quote", 0]);
      if (!isPlainObject(chart) || !Array.isArray(chart.timestamp) || !isPlainObject(quote)) throw malformedAnswer(NAME);
      const column = (name: string) => (Array.isArray(quote[name]) ? (quote[name] as unknown[]) : []);
      const round = (value: unknown) => (typeof value === "number" ? Math.round(value * 100) / 100 : value);
      const rows = chart.timestamp.map((time, i) => ({
        Date: typeof time === "number" ? new Date(time * 1000).toISOString().slice(0, 10) : "",
        Open: round(column("open")[i]),
        High: round(column("high")[i]),
        Low: round(column("low")[i]),
        Close: round(column("close")[i]),
        Volume: column("volume")[i],
      }));
      sections.push({ section: "history", text: recordsTable(rows) });
    }
    if (on("news")) {
      const url = new URL(`${base}/v1/finance/search`);
      url.searchParams.set("q", ticker);
      url.searchParams.set("quotesCount", "0");
      url.searchParams.set("newsCount", String(NEWS_COUNT));
      const body = yahooJson(await fetchOutside(context, { service: NAME, url: url.href, headers }), "finance", ticker);
      if (!Array.isArray(body.news)) throw malformedAnswer(NAME);
      const rows = body.news.filter(isPlainObject).map((item) => ({
        title: item.title,
        publisher: item.publisher,
        link: item.link,
        time: typeof item.providerPublishTime === "number" ? new Date(item.providerPublishTime * 1000).toISOString().slice(0, 16).replace("T", " ") : "",
      }));
      sections.push({ section: "news", text: recordsTable(rows) });
    }
    const items = sections.filter((s) => s.text).map((s) => ({ title: title(s.section), content: s.text }));
    return { content: items.map((item) => `${item.title}:\n${item.content}`).join("\n\n"), items };
  },
};

