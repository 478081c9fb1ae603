import type { ParamProblems, ParamSpecView } from "../../../components/paramForm.logic";
import type { Problem } from "../../../errors";
import type { EditorNode, FlowProblem } from "../flowTypes";
import { SECRET_TEXT_WIDGET, SECRET_WIDGET } from "./secrets";

/** The model settings a chatModel widget draws beside its model (server/src/flows/params.ts modelParams). */
export const MODEL_SETTING_KEYS = ["temperature", "top_p", "presence_penalty", "frequency_penalty", "max_tokens"] as const;

/** A list of strings with no widget of its own (Message's messages, Answer's post_answers): one text per row. */
export const TEXT_LIST_WIDGET = "textList";

/** The widget whose renderer draws a chat model's settings. */
export const CHAT_MODEL_WIDGET = "chatModel";

export const problemOf = (problem: FlowProblem): Problem => ({ key: problem.messageKey, params: problem.params ?? undefined, text: problem.message });

/** The widgets of multi-line texts: a secret of one of them is typed in a text box. */
const TEXT_WIDGETS = ["json", "code", "multiline"];

/**
 * The specs the form draws: the model settings go to the chatModel widget, string lists get one row per text, secrets
 * their own field (stored ones are never shown).
 */
export function formSpecs(specs: ParamSpecView[]): ParamSpecView[] {
  const modelWidget = specs.some((spec) => spec.widget === CHAT_MODEL_WIDGET);
  return specs
    .filter((spec) => !(modelWidget && (MODEL_SETTING_KEYS as readonly string[]).includes(spec.key)))
    .map((spec) => {
      if (spec.type === "secret") return { ...spec, widget: TEXT_WIDGETS.includes(spec.widget ?? "") ? SECRET_TEXT_WIDGET : SECRET_WIDGET };
      return spec.type === "list" && !spec.widget ? { ...spec, widget: TEXT_LIST_WIDGET } : spec;
    });
}

export interface PlacedProblems {
  /** Shown above the form: the node as a whole, and params the form does not draw. */
  node: FlowProblem[];
  name?: FlowProblem;
  /** By dotted param path, for <ParamForm>. */
  byPath: ParamProblems;
}

/** validateFlow's problems of one node, each where the form shows it. */
export function placeProblems(problems: FlowProblem[], specs: ParamSpecView[]): PlacedProblems {
  const drawn = new Set(specs.map((spec) => spec.key));
  const placed: PlacedProblems = { node: [], byPath: {} };
  for (const problem of problems) {
    if (problem.field === "name") placed.name ??= problem;
    else if (problem.field && drawn.has(problem.field.split(".")[0])) placed.byPath[problem.field] ??= problemOf(problem);
    else placed.node.push(problem);
  }
  return placed;
}

/** The name's problem the user sees as they type (the server's rule, validate.ts: required, unique ignoring case and spaces around). */
export function nameProblem(name: string, nodeId: string, nodes: EditorNode[]): Problem | undefined {
  const trimmed = name.trim();
  if (trimmed === "") return { key: "flow.errors.nameRequired" };
  const taken = nodes.some((node) => node.id !== nodeId && node.name.trim().toLowerCase() === trimmed.toLowerCase());
  return taken ? { key: "flow.errors.nameDuplicate", params: { name: trimmed } } : undefined;
}
