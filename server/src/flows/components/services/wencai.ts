import type { ComponentContext, ComponentDefinition, ComponentOutput } from "../../component";
import { DESCRIPTION, INPUT_VARIABLES, topN } from "../../params";
import { callVendor, inputText, malformedAnswer, parseJson, recordsTable, vendorBase, vendorError } from "../outside-service";
import {valueAt, keyValueLines } from "./vendor";
import { isPlainObject } from "../../../platform/plain-object";

/**
 * iwencai.com (Tonghuashun's "WenCai") has no documented public API. RAGFlow calls the pywencai library, which
 * does what the site's page does, and so does this component, as closely as we can:
 * 1. POST /customized/chart/get-robot-data with the question as JSON (`secondary_intent` is the query type);
 *    the answer's `data.answer[0].txt[0].content.components` are the result's blocks;
 * 2. when that is a stock-picking table (show_type "xuangu_tableV1"), its rows are read with a form POST to
 *    /gateway/urp/v7/landing/getDataList (condition, comp_id, uuid from step 1; perpage is top N).
 * Other blocks are turned into text as pywencai turns them (text blocks, tables of `data.datas`, records).
 * pywencai also sends a `hexin-v` token made by the site's obfuscated script; Cairn cannot run that script, so
 * the site may refuse or slow down its requests at any time. This is said in the component's description.
 */

const NAME = "WenCai";
const API = "https://www.iwencai.com";
const QUERY_TYPES = ["stock", "zhishu", "fund", "hkstock", "usstock", "threeboard", "conbond", "insurance", "futures", "lccp", "foreign_exchange"];
const USER_AGENT = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const SOURCE = "Ths_iwencai_Xuangu";

type Block = Record<string, unknown>;

async function wencaiJson(context: ComponentContext, url: string, body: string | URLSearchParams, json: boolean): Promise<unknown> {
  const answer = await callVendor(context, {
    service: NAME,
    url,
    method: "POST",
    headers: { "user-agent": USER_AGENT, accept: "application/json, text/plain, */*", referer: `${API}/unifiedwap/home/index`, ...(json ? { "content-type": "application/json" } : {}) },
    body,
  });
  const parsed = parseJson(answer.text, NAME);
  if (!isPlainObject(parsed)) throw malformedAnswer(NAME);
  // The site answers refusals with a status and message of its own inside a 200.
  if (typeof parsed.status_code === "number" && parsed.status_code !== 0) throw vendorError(NAME, `${parsed.status_code} ${String(parsed.status_msg ?? "")}`.trim());
  return parsed;
}

/** One block as pywencai's convert() reads it: its title, then its text, table or record. */
function blockText(block: Block): string {
  const title = valueAt(block, ["title_config", "data", "h1"]) ?? valueAt(block, ["config", "title"]) ?? block.show_type;
  const showType = String(block.show_type ?? "");
  const data = block.data;
  let body = "";
  if (showType === "txt1" || showType === "txt2") body = String(valueAt(data, ["content"]) ?? "");
  else if (Array.isArray(valueAt(data, ["datas"]))) body = recordsTable((valueAt(data, ["datas"]) as unknown[]).filter(isPlainObject));
  else if (isPlainObject(data) && !("meta" in data)) body = keyValueLines(data).join("\n");
  return body ? [typeof title === "string" && title ? title : "", body].filter(Boolean).join("\n") : "";
}

export const wenCai: ComponentDefinition = {
  name: NAME,
  category: "data",
  icon: "LuChartLine",
  params: [
    DESCRIPTION,
    INPUT_VARIABLES,
    topN(10),
    { key: "query_type", type: "select", label: `flow.components.${NAME}.params.query_type`, options: QUERY_TYPES.map((value) => ({ value, label: `flow.components.${NAME}.options.query_type.${value}` })), default: "stock" },
  ],
  needs: ["internet"],
  async run(context): Promise<ComponentOutput> {
    const question = inputText(context, ",");
    if (!question) return { content: "" };
    const queryType = String(context.params.query_type);
    const perpage = Number(context.params.top_n);
    const base = vendorBase(context, NAME, API);
    const robot = await wencaiJson(
      context,
      `${base}/customized/chart/get-robot-data`,
      JSON.stringify({
        add_info: JSON.stringify({ urp: { scene: 1, company: 1, business: 1 }, contentType: "json", searchInfo: true }),
        perpage: String(perpage),
        page: 1,
        source: SOURCE,
        log_info: JSON.stringify({ input_type: "click" }),
        version: "2.0",
        secondary_intent: queryType,
        question,
      }),
      true,
    );
    let content = valueAt(robot, ["data", "answer", 0, "txt", 0, "content"]);
    if (typeof content === "string") {
      try {
        content = JSON.parse(content) as unknown;
      } catch {
        throw malformedAnswer(NAME);
      }
    }
    const blocks = valueAt(content, ["components"]);
    if (!Array.isArray(blocks)) throw malformedAnswer(NAME);
    const first = blocks[0];
    if (blocks.length === 1 && isPlainObject(first) && first.show_type === "xuangu_tableV1") {
      const condition = valueAt(first, ["data", "meta", "extra", "condition"]);
      if (typeof condition !== "string") throw malformedAnswer(NAME);
      const form = new URLSearchParams({
        query: question,
        perpage: String(perpage),
        page: "1",
        source: SOURCE,
        query_type: queryType,
        condition,
        comp_id: String(first.cid ?? ""),
        uuid: String(first.puuid ?? ""),
      });
      const page = await wencaiJson(context, `${base}/gateway/urp/v7/landing/getDataList`, form, false);
      const rows = valueAt(page, ["answer", "components", 0, "data", "datas"]);
      if (!Array.isArray(rows)) throw malformedAnswer(NAME);
      const records = rows.filter(isPlainObject).slice(0, perpage);
      return { content: recordsTable(records) };
    }
    const texts = blocks.filter(isPlainObject).map(blockText).filter(Boolean);
    return { content: texts.join("\n\n"), items: texts.map((text) => ({ content: text })) };
  },
};
