import type { ParamSpec } from "../../../platform/param-spec";
import type { ComponentDefinition, ComponentOutput } from "../../component";
import { DESCRIPTION, INPUT_VARIABLES } from "../../params";
import { callVendor, malformedAnswer, parseJson, requiredKey, vendorBase, vendorError } from "../outside-service";
import { isPlainObject } from "../../../platform/plain-object";

/**
 * Tushare Pro's news flashes (https://tushare.pro/document/2?doc_id=143): one JSON POST to http://api.tushare.pro
 * with `{api_name: "news", token, params: {src, start_date, end_date}, fields}`; the answer is `{code, msg, data:
 * {fields, items}}` with code 0 on success. The rows are filtered by keyword here, as RAGFlow did.
 */

const NAME = "TuShare";
const API = "http://api.tushare.pro";
/** Spec §9's seven news sources: Sina, Wallstreetcn, 10jqka, Eastmoney, Yuncaijing, Phoenix, JRJ. */
const SOURCES = ["sina", "wallstreetcn", "10jqka", "eastmoney", "yuncaijing", "fenghuang", "jinrongjie"];
const FIELDS = "datetime,title,content,channels";
/** Tushare answers up to 1500 flashes a call; more than this would only flood the model that reads them. */
const MAX_ITEMS = 100;

const param = (key: string) => `flow.components.${NAME}.params.${key}`;
const dateParam = (key: string, fallback: string): ParamSpec => ({ key, type: "string", label: param(key), help: `flow.components.${NAME}.help.dates`, default: fallback, pattern: "^(\\d{4}-\\d{2}-\\d{2}( \\d{2}:\\d{2}(:\\d{2})?)?)?$" });

const PARAMS: ParamSpec[] = [
  DESCRIPTION,
  INPUT_VARIABLES,
  { key: "token", type: "secret", label: param("token"), help: `flow.components.${NAME}.help.token`, default: "" },
  { key: "src", type: "select", label: param("src"), options: SOURCES.map((value) => ({ value, label: `flow.components.${NAME}.options.src.${value}` })), default: "eastmoney" },
  dateParam("start_date", "2024-01-01 09:00:00"),
  // Empty means "now" (RAGFlow set the time its server started).
  dateParam("end_date", ""),
  { key: "keyword", type: "string", label: param("keyword"), default: "" },
];

/** Now in China's time, which Tushare's dates are written in. */
function nowInChina(): string {
  return new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 19).replace("T", " ");
}

export const tuShare: ComponentDefinition = {
  name: NAME,
  category: "data",
  icon: "LuTrendingUp",
  params: PARAMS,
  needs: ["apiKey", "internet"],
  async run(context): Promise<ComponentOutput> {
    const token = requiredKey(context, "token", NAME);
    const startDate = String(context.params.start_date ?? "").trim();
    const endDate = String(context.params.end_date ?? "").trim() || nowInChina();
    const keyword = context.resolve(String(context.params.keyword ?? "")).trim().toLowerCase();
    const request = { api_name: "news", token, params: { src: context.params.src, start_date: startDate, end_date: endDate }, fields: FIELDS };
    const answer = await callVendor(context, {
      service: NAME,
      url: vendorBase(context, NAME, API),
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request),
    });
    const body = parseJson(answer.text, NAME);
    if (!isPlainObject(body)) throw malformedAnswer(NAME);
    if (body.code !== 0) throw vendorError(NAME, `${String(body.code)} ${typeof body.msg === "string" ? body.msg : ""}`.trim());
    const data = body.data;
    if (!isPlainObject(data) || !Array.isArray(data.fields) || !Array.isArray(data.items)) throw malformedAnswer(NAME);
    const fields = data.fields.map(String);
    const rows = data.items.filter(Array.isArray).map((item: unknown[]) => Object.fromEntries(fields.map((field, i) => [field, item[i] === null || item[i] === undefined ? "" : String(item[i])])));
    const matching = keyword ? rows.filter((row) => `${row.title ?? ""}\n${row.content ?? ""}`.toLowerCase().includes(keyword)) : rows;
    const items = matching.slice(0, MAX_ITEMS).map((row) => ({ title: [row.datetime, row.title].filter(Boolean).join(" "), content: row.content ?? "" }));
    return { content: items.map((item) => `${item.title}\n${item.content}`).join("\n\n"), items };
  },
};

