import { finalAnswer, referenceOf } from "../../../chat/answer/citations";
import { CITATION_GUIDE, formatKnowledge } from "../../../chat/answer/prompt";
import type { ChatMessage, TokenUsage } from "../../../models/model-types";
import { localizedMessage } from "../../../platform/messages";
import type { ParamIssue } from "../../../platform/param-spec";
import type { RetrievalHit } from "../../../retrieval/retrieval.service";
import type { ComponentContext, ComponentDefinition, ComponentOutput } from "../../component";
import { DESCRIPTION, historyWindow, modelParams } from "../../params";
import { chatModelOf, countCall, generationOptions, inputText, recentMessages } from "./model-call";
import { isPlainObject } from "../../../platform/plain-object";

/**
 * Generate (RAGFlow v0.14 `agent/component/generate.py`): a chat model answers with the prompt as its system
 * message and the last messages of the conversation. `{key}` in the prompt takes the output of the component
 * (or Begin input) its `parameters` entry names; with no parameters, `{input}` takes the default input. With
 * `cite`, the retrieved chunks it reads are given as chat gives them (numbered `ID: n` blocks and the citation
 * guide), and its answer gets chat's citation repair and insertion and a reference. When the retrievals found
 * nothing and it has nothing else to read, it answers with their empty response, without a model call.
 */

const NAME = "Generate";
const text = (key: string) => `flow.components.${NAME}.${key}`;

/** The v0.14 editor's prompt for a new Generate. */
const DEFAULT_PROMPT =
  "Please summarize the following paragraphs. Be careful with the numbers, do not make things up. Paragraphs as following:\n  {input}\n  The above is the content you need to summarize.";

export interface PromptParameter {
  key: string;
  component_id: string;
}

const PARAMETERS_ERROR = "flow.components.Generate.errors.parameters";

function checkParameters(value: unknown): ParamIssue[] {
  if (!Array.isArray(value)) return [{ code: "type", messageKey: PARAMETERS_ERROR }];
  return value.flatMap((entry, i): ParamIssue[] =>
    isPlainObject(entry) && typeof entry.key === "string" && entry.key.trim() !== "" && typeof entry.component_id === "string" && entry.component_id !== ""
      ? []
      : [{ path: String(i), code: "type", messageKey: PARAMETERS_ERROR, value: entry }],
  );
}

export function parametersOf(params: Record<string, unknown>): PromptParameter[] {
  return Array.isArray(params.parameters) ? (params.parameters as unknown[]).filter((p): p is PromptParameter => checkParameters([p]).length === 0) : [];
}

/**
 * The retrieved chunks a prompt holds, numbered in one sequence over the Retrieval outputs it reads, in the
 * order it reads them. A value holds a Retrieval's output when it holds its `content` (what `{Retrieval:x}` and
 * the default input give), or, joined some other way, the text of each of its chunks.
 */
class Knowledge {
  readonly hits: RetrievalHit[] = [];
  total = 0;
  /** Where each Retrieval output's chunks start in the sequence. */
  private readonly firstIds = new Map<ComponentOutput, number>();

  constructor(private readonly retrievals: readonly ComponentOutput[]) {}

  private firstIdOf(retrieval: ComponentOutput, hits: RetrievalHit[]): number {
    let first = this.firstIds.get(retrieval);
    if (first === undefined) {
      first = this.hits.length;
      this.firstIds.set(retrieval, first);
      this.hits.push(...hits);
      this.total += typeof retrieval.values?.total === "number" ? retrieval.values.total : hits.length;
    }
    return first;
  }

  /** The value with the Retrieval outputs it holds written as numbered `ID: n` blocks. */
  numbered(value: string): string {
    let result = value;
    for (const retrieval of this.retrievals) {
      const hits = (retrieval.items ?? []).flatMap((item) => (item.hit ? [item.hit] : []));
      if (hits.length === 0) continue;
      if (retrieval.content && result.includes(retrieval.content)) {
        result = result.split(retrieval.content).join(formatKnowledge(hits, this.firstIdOf(retrieval, hits)));
      } else if (hits.every((hit) => result.includes(hit.chunk.content))) {
        // Each block on lines of its own (formatKnowledge's leading newline), where the built-in model finds it.
        const first = this.firstIdOf(retrieval, hits);
        hits.forEach((hit, i) => (result = result.split(hit.chunk.content).join(formatKnowledge([hit], first + i))));
      }
    }
    return result;
  }
}

/** The values of the prompt's `{key}`s: each parameter's component output, or the default input for `{input}`. */
function promptValues(context: ComponentContext, template: string): [string, string][] {
  const parameters = parametersOf(context.params);
  if (parameters.length > 0) return parameters.map((p) => [p.key, context.resolve(`{${p.component_id}}`)]);
  return template.includes("{input}") ? [["input", inputText(context)]] : [];
}

/** Fills the values in first (a value may hold braces of its own), then every other reference the run knows. */
function fillPrompt(context: ComponentContext, template: string, values: [string, string][]): string {
  let prompt = template;
  const marks = values.map(([key, value], i) => {
    const mark = `\u0000${i}\u0000`;
    prompt = prompt.split(`{${key}}`).join(mark);
    return [mark, value] as const;
  });
  prompt = context.resolve(prompt);
  for (const [mark, value] of marks) prompt = prompt.split(mark).join(value);
  return prompt;
}

/** RAGFlow answers with the retrievals' empty responses, or "Nothing found in knowledgebase!". */
function emptyResponse(context: ComponentContext): string {
  const given = [...new Set(context.retrievals.map((r) => r.values?.empty_response).filter((r): r is string => typeof r === "string" && r.trim() !== ""))];
  return given.length > 0 ? given.join("\n") : localizedMessage(context.language, text("nothingFound"));
}

function speak(context: ComponentContext, answer: string): ComponentOutput {
  if (context.speaking) context.say(answer);
  return { content: answer, spoken: context.speaking };
}

/** The conversation the model is shown: citations taken out of earlier answers, and a user turn even when there is none (a task flow). */
function conversation(context: ComponentContext): ChatMessage[] {
  const messages: ChatMessage[] = recentMessages(context.history, context.params.message_history_window_size).map((m) => ({
    role: m.role,
    content: m.role === "assistant" ? m.content.replace(/\s*\[ID:\d+\]/g, "") : m.content,
  }));
  return messages.length > 0 ? messages : [{ role: "user", content: context.question }];
}

export const generateComponent: ComponentDefinition = {
  name: NAME,
  category: "core",
  restrictedTargets: ["Begin"],
  icon: "LuBrain",
  params: [
    DESCRIPTION,
    ...modelParams(),
    { key: "prompt", type: "text", label: text("params.prompt"), help: text("help.prompt"), default: DEFAULT_PROMPT, widget: "prompt" },
    { key: "cite", type: "boolean", label: text("params.cite"), help: text("help.cite"), default: true },
    historyWindow(12),
    { key: "parameters", type: "json", label: text("params.parameters"), help: text("help.parameters"), default: [], widget: "promptParameters", check: checkParameters },
  ],
  async run(context) {
    const { params } = context;
    const template = typeof params.prompt === "string" ? params.prompt : "";
    const values = promptValues(context, template);
    const retrievalsEmpty = context.retrievals.length > 0 && context.retrievals.every((r) => !(r.items ?? []).some((item) => item.hit));
    if (values.length > 0 && retrievalsEmpty && values.every(([, value]) => value.trim() === "")) return speak(context, emptyResponse(context));

    const knowledge = new Knowledge(params.cite === false ? [] : context.retrievals);
    const filled = values.map(([key, value]): [string, string] => [key, knowledge.numbered(value)]);
    const citing = knowledge.hits.length > 0;
    const prompt = fillPrompt(context, template, filled);
    const messages: ChatMessage[] = [{ role: "system", content: citing ? `${CITATION_GUIDE}\n${prompt}` : prompt }, ...conversation(context)];

    const model = await chatModelOf(context);
    let raw = "";
    let usage: TokenUsage | undefined;
    for await (const event of model.stream(messages, generationOptions(params, context.signal))) {
      if (event.type === "delta" && event.text) {
        raw += event.text;
        if (context.speaking) context.say(event.text);
      } else if (event.type === "usage") usage = event.usage;
    }
    countCall(context, messages, raw, usage);
    if (!citing) return { content: raw, spoken: context.speaking };
    const content = finalAnswer(raw, knowledge.hits, true);
    return { content, reference: referenceOf(knowledge.hits, { total: knowledge.total }, content), spoken: context.speaking };
  },
};
