import type { ComponentDefinition, ComponentOutput, OutputItem } from "../../component";
import { DESCRIPTION, INPUT_VARIABLES, topN } from "../../params";
import { callVendor, inputText, malformedAnswer, vendorBase, vendorError } from "../outside-service";
import {listOutput, textIn } from "./vendor";
import { isPlainObject } from "../../../platform/plain-object";

/**
 * The stock news AkShare's `stock_news_em(symbol)` gives, read where AkShare reads it: Eastmoney's search API
 * (search-api-web.eastmoney.com/search/jsonp), a JSONP GET whose `param` is the search as JSON, answering
 * `{code, result: {cmsArticleWebOld: [{date, title, content, mediaName, code}]}}`; an article's page is
 * http://finance.eastmoney.com/a/<code>.html. No key.
 */

const NAME = "AkShare";
const API = "https://search-api-web.eastmoney.com";
const CALLBACK = "jQuery35101792940631092459_1764599530165";

/** Eastmoney marks the searched words with <em>, and pads texts with ideographic spaces and line breaks. */
const clean = (text: unknown) => (typeof text === "string" ? text.replace(/<\/?em>/g, "").replace(/[\u3000\r\n]+/g, " ").trim() : "");

/** The JSON inside `callback(…)`; a plain JSON answer is accepted too. */
function unwrapJsonp(text: string): unknown {
  const trimmed = text.trim();
  const open = trimmed.indexOf("(");
  const json = trimmed.startsWith("{") ? trimmed : open >= 0 && trimmed.endsWith(")") ? trimmed.slice(open + 1, -1) : trimmed.endsWith(");") ? trimmed.slice(open + 1, -2) : "";
  return JSON.parse(json) as unknown;
}

export const akShare: ComponentDefinition = {
  name: NAME,
  category: "data",
  icon: "LuNewspaper",
  params: [DESCRIPTION, INPUT_VARIABLES, topN(10)],
  needs: ["internet"],
  async run(context): Promise<ComponentOutput> {
    const symbol = inputText(context, ",");
    if (!symbol) return { content: "" };
    const pageSize = Number(context.params.top_n);
    const search = {
      uid: "",
      keyword: symbol,
      type: ["cmsArticleWebOld"],
      client: "web",
      clientType: "web",
      clientVersion: "curr",
      param: { cmsArticleWebOld: { searchScope: "default", sort: "default", pageIndex: 1, pageSize, preTag: "<em>", postTag: "</em>" } },
    };
    const url = new URL(`${vendorBase(context, NAME, API)}/search/jsonp`);
    url.searchParams.set("cb", CALLBACK);
    url.searchParams.set("param", JSON.stringify(search));
    const answer = await callVendor(context, {
      service: NAME,
      url: url.href,
      headers: { accept: "*/*", referer: `https://so.eastmoney.com/news/s?keyword=${encodeURIComponent(symbol)}`, "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36" },
    });
    let body: unknown;
    try {
      body = unwrapJsonp(answer.text);
    } catch {
      throw malformedAnswer(NAME);
    }
    if (!isPlainObject(body)) throw malformedAnswer(NAME);
    if (body.code !== undefined && Number(body.code) !== 0) throw vendorError(NAME, `${String(body.code)} ${typeof body.msg === "string" ? body.msg : ""}`.trim());
    const result = isPlainObject(body.result) ? body.result.cmsArticleWebOld : undefined;
    if (result === undefined || result === null) return { content: "" };
    if (!Array.isArray(result)) throw malformedAnswer(NAME);
    const label = (key: string) => textIn(context, `flow.components.${NAME}.fields.${key}`);
    const items: OutputItem[] = result
      .filter(isPlainObject)
      .slice(0, pageSize)
      .map((article) => ({
        title: clean(article.title),
        url: typeof article.code === "string" ? `http://finance.eastmoney.com/a/${article.code}.html` : undefined,
        content: [clean(article.content), `${label("date")}: ${clean(article.date)}`, `${label("source")}: ${clean(article.mediaName)}`].join("\n"),
      }));
    return listOutput(items);
  },
};
