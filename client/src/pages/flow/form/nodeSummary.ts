import { withDefaults } from "../../../components/paramForm.logic";
import type { EditorNode, FlowComponentInfo } from "../flowTypes";
import { beginInputsOf } from "./beginInputs";
import { categoriesOf } from "./categories";
import { casesOf } from "./conditions";
import { modelName } from "./modelSettings";
import { CHAT_MODEL_WIDGET } from "./nodeForm.logic";
import type { Translate } from "./references";

/**
 * One short line of a node's settings for the canvas ("2 knowledge bases · top 8", the model, the categories,
 * "2 cases + ELSE", the first message); the node's own description when its settings say nothing worth showing.
 */

const MAX_LENGTH = 80;

const texts = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string" && item.trim() !== "") : []);
const text = (value: unknown): string => (typeof value === "string" ? value : "");
const firstLine = (value: string) => value.trim().split("\n")[0].trim();
const joined = (...parts: string[]) => parts.filter(Boolean).join(" · ");

type Summary = (params: Record<string, unknown>, t: Translate) => string;

const model = (params: Record<string, unknown>, t: Translate) => (text(params.llm_id) ? modelName(text(params.llm_id)) : t("flow.form.summary.defaultModel"));
const topN = (params: Record<string, unknown>, t: Translate) => (typeof params.top_n === "number" ? t("flow.form.summary.top", { n: params.top_n }) : "");

const SUMMARIES: Record<string, Summary> = {
  Begin: (params, t) => {
    const inputs = beginInputsOf(params.query).length;
    return inputs > 0 ? t("flow.form.summary.inputs", { count: inputs }) : firstLine(text(params.prologue));
  },
  Retrieval: (params, t) => joined(t("flow.form.summary.knowledgeBases", { count: texts(params.kb_ids).length }), topN(params, t)),
  Categorize: (params, t) => {
    const names = Object.keys(categoriesOf(params.category_description));
    return names.length > 0 ? names.join(" · ") : t("flow.form.summary.noCategories");
  },
  Switch: (params, t) => t("flow.form.summary.cases", { count: casesOf(params.conditions).length }),
  Agent: (params, t) => joined(model(params, t), texts(params.tools).length > 0 ? t("flow.form.summary.tools", { count: texts(params.tools).length }) : ""),
  Message: (params) => firstLine([...texts(params.messages), ...texts(params.content)][0] ?? ""),
  Answer: () => "",
  Template: (params) => firstLine(text(params.content)),
  Note: (params) => firstLine(text(params.text)),
  Invoke: (params) => `${text(params.method).toUpperCase()} ${text(params.url)}`.trim(),
  ExeSQL: (params) => joined(text(params.db_type), [text(params.database), text(params.host)].filter(Boolean).join("@")),
  Iteration: (params, t) => t("flow.form.summary.delimiter", { delimiter: text(params.delimiter) }),
};

function settingsSummary(params: Record<string, unknown>, component: FlowComponentInfo, t: Translate): string {
  const own = SUMMARIES[component.name];
  if (own) return own(params, t);
  if (component.params.some((spec) => spec.widget === CHAT_MODEL_WIDGET)) return model(params, t);
  return topN(params, t);
}

export function nodeSummary(node: EditorNode, component: FlowComponentInfo, t: Translate): string {
  // A param not stored yet has its default, as the run reads it.
  const params = withDefaults(component.params, node.params);
  const summary = settingsSummary(params, component, t) || firstLine(text(params.description));
  return summary.length > MAX_LENGTH ? `${summary.slice(0, MAX_LENGTH - 1)}…` : summary;
}
