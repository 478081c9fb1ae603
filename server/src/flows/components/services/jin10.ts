import type { ParamSpec } from "../../../platform/param-spec";
import type { ComponentContext, ComponentDefinition, ComponentOutput } from "../../component";
import { DESCRIPTION, INPUT_VARIABLES } from "../../params";
import { answerJson, fetchOutside, inputText, malformedAnswer, recordsTable, requiredKey, vendorBase, vendorError } from "../outside-service";
import {textIn } from "./vendor";
import { isPlainObject } from "../../../platform/plain-object";

/**
 * Jin10's open data API (open-data-api.jin10.com/data-api, the key in a `secret-key` header): news flashes
 * (`/flash?category=1..5`), economic calendars (`/calendar/{data|event|holiday}?category=cj|qh|hk|us`), symbol
 * lists and quotes (`/symbols?type=…`, `/quotes?type=…&codes=…`) and news (`/news`). Answers are
 * `{status, message, data}` with status 200 on success. RAGFlow sent the filters as a body of its GETs and asked
 * quotes for BTCUSD whatever the flow said; here they are query parameters, and quotes are asked for the codes
 * the component reads (e.g. "XAUUSD,BTCUSD").
 */

const NAME = "Jin10";
const API = "https://open-data-api.jin10.com";

const param = (key: string) => `flow.components.${NAME}.params.${key}`;
const select = (key: string, values: string[], fallback: string, show?: string): ParamSpec => ({
  key,
  type: "select",
  label: param(key),
  options: values.map((value) => ({ value, label: `flow.components.${NAME}.options.${key}.${value}` })),
  default: fallback,
  ...(show ? { displayOptions: { show: { type: [show] } } } : {}),
});

/** Spec §9's constants; the defaults are RAGFlow v0.14's. */
const PARAMS: ParamSpec[] = [
  DESCRIPTION,
  INPUT_VARIABLES,
  { key: "secret_key", type: "secret", label: param("secret_key"), help: `flow.components.${NAME}.help.secret_key`, default: "" },
  select("type", ["flash", "calendar", "symbols", "news"], "flash"),
  select("flash_type", ["1", "2", "3", "4", "5"], "1", "flash"),
  select("calendar_type", ["cj", "qh", "hk", "us"], "cj", "calendar"),
  select("calendar_datatype", ["data", "event", "holiday"], "data", "calendar"),
  select("symbols_type", ["GOODS", "FOREX", "FUTURE", "CRYPTO"], "GOODS", "symbols"),
  { ...select("symbols_datatype", ["symbols", "quotes"], "symbols", "symbols"), help: `flow.components.${NAME}.help.symbols_datatype` },
  { key: "contain", type: "string", label: param("contain"), help: `flow.components.${NAME}.help.contain`, default: "", displayOptions: { show: { type: ["flash", "news"] } } },
  { key: "filter", type: "string", label: param("filter"), help: `flow.components.${NAME}.help.filter`, default: "", displayOptions: { show: { type: ["flash", "news"] } } },
];

/** Jin10's one-letter fields of symbols and quotes, named as RAGFlow named them (in the runner's language). */
const SYMBOL_NAMES: Record<string, string> = { c: "code", e: "exchange", n: "name", t: "type" };
const QUOTE_NAMES: Record<string, string> = { c: "code", e: "exchange", p: "price", o: "open", h: "high", l: "low", hc: "previousClose", a: "ask", b: "bid", t: "time" };

const stripTags = (html: string) => html.replace(/<br\s*\/?>/gi, "\n").replace(/<[^>]+>/g, "").trim();

async function jin10(context: ComponentContext, key: string, path: string, query: Record<string, string>): Promise<unknown[]> {
  const url = new URL(`${vendorBase(context, NAME, API)}/data-api${path}`);
  for (const [name, value] of Object.entries(query)) if (value !== "") url.searchParams.set(name, value);
  const answer = await fetchOutside(context, { service: NAME, url: url.href, headers: { "secret-key": key, accept: "application/json" } });
  const body: unknown = answerJson(answer, NAME);
  if (!isPlainObject(body)) throw malformedAnswer(NAME);
  const status = body.status ?? answer.status;
  if (answer.status !== 200 || Number(status) !== 200) throw vendorError(NAME, `${String(status)} ${typeof body.message === "string" ? body.message : ""}`.trim());
  if (!Array.isArray(body.data)) throw malformedAnswer(NAME);
  return body.data;
}

function table(context: ComponentContext, rows: unknown[], names?: Record<string, string>): string {
  const records = rows.filter(isPlainObject);
  if (!names) return recordsTable(records);
  const fields = Object.keys(names);
  const headers = Object.fromEntries(fields.map((field) => [field, textIn(context, `flow.components.${NAME}.fields.${names[field]}`)]));
  return recordsTable(records.map((row) => Object.fromEntries(fields.map((field) => [field, row[field]]))), headers);
}

export const jin10Component: ComponentDefinition = {
  name: NAME,
  category: "data",
  icon: "LuZap",
  params: PARAMS,
  needs: ["apiKey", "internet"],
  async run(context): Promise<ComponentOutput> {
    const key = requiredKey(context, "secret_key", NAME);
    const p = context.params as Record<string, string>;
    const filters = { contain: context.resolve(p.contain ?? "").trim(), filter: context.resolve(p.filter ?? "").trim() };
    switch (p.type) {
      case "calendar": {
        const rows = await jin10(context, key, `/calendar/${p.calendar_datatype}`, { category: p.calendar_type });
        return { content: table(context, rows) };
      }
      case "symbols": {
        if (p.symbols_datatype === "quotes") {
          const codes = inputText(context, ",").replace(/\s+/g, "");
          if (!codes) return { content: "" };
          const rows = await jin10(context, key, "/quotes", { type: p.symbols_type, codes });
          return { content: table(context, rows, QUOTE_NAMES) };
        }
        const rows = await jin10(context, key, "/symbols", { type: p.symbols_type });
        return { content: table(context, rows, SYMBOL_NAMES) };
      }
      case "news": {
        const rows = (await jin10(context, key, "/news", filters)).filter(isPlainObject);
        const items = rows.map((row) => ({
          title: String(row.title ?? ""),
          url: typeof row.url === "string" ? row.url : undefined,
          content: [row.time, row.introduction].filter((part) => typeof part === "string" && part !== "").join("\n"),
        }));
        return { content: items.map((item) => [item.title, item.content].filter(Boolean).join("\n")).join("\n\n"), items };
      }
      default: {
        const rows = (await jin10(context, key, "/flash", { category: p.flash_type, ...filters })).filter(isPlainObject);
        const items = rows
          .map((row) => ({ title: typeof row.time === "string" ? row.time : undefined, content: isPlainObject(row.data) && typeof row.data.content === "string" ? stripTags(row.data.content) : "" }))
          .filter((item) => item.content !== "");
        return { content: items.map((item) => [item.title, item.content].filter(Boolean).join(" ")).join("\n"), items };
      }
    }
  },
};
