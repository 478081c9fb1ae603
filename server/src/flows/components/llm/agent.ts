import { finalAnswer, referenceOf } from "../../../chat/answer/citations";
import { CITATION_GUIDE, formatKnowledge } from "../../../chat/answer/prompt";
import { completeTurn } from "../../../models/chat-tools";
import type { ChatMessage, GenerationOptions, ToolCall, ToolDefinition } from "../../../models/model-types";
import { localizedMessage } from "../../../platform/messages";
import { failureText } from "../../failure-text";
import { withDefaults, type ParamIssue } from "../../../platform/param-spec";
import type { RetrievalHit } from "../../../retrieval/retrieval.service";
import type { ComponentContext, ComponentDefinition } from "../../component";
import { DESCRIPTION, historyWindow, modelParams, topN } from "../../params";
import { chatModelOf, componentError, countCall, generationOptions, inputText, recentMessages } from "./model-call";
import { knowledgeBaseIds, retrievalComponent, searchKnowledgeBases } from "./retrieval";

/**
 * Agent (Cairn's own; RAGFlow has one from v0.20): a chat model that answers by calling tools, round after
 * round, until it answers in text or `max_rounds` is spent. Its tools are components of the flow it names
 * (each run on the text the model gives it, through the engine) and a search of the knowledge bases it names
 * (the Retrieval component's own work, with its citations). A model that cannot call tools is refused before
 * anything runs.
 */

const NAME = "Agent";
const text = (key: string) => `flow.components.${NAME}.${key}`;

const DEFAULT_PROMPT = "You are a helpful assistant. Use the tools when they help you answer, and say which source each fact comes from.";
const KNOWLEDGE_TOOL = "search_knowledge_bases";

/** A tool's name as vendors accept it (letters, digits, _ and -, at most 64): "Wikipedia:ThinLampsTravel" → "Wikipedia_ThinLampsTravel". */
function toolNameOf(componentId: string, taken: Set<string>): string {
  const base = componentId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 60) || "component";
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  taken.add(name);
  return name;
}

const stringList = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.trim() !== "") : []);

interface Toolbox {
  definitions: ToolDefinition[];
  run(call: ToolCall): Promise<string>;
  /** Every chunk the knowledge tool gave, in the order of their citation ids. */
  hits: RetrievalHit[];
}

function toolbox(context: ComponentContext): Toolbox {
  const taken = new Set<string>([KNOWLEDGE_TOOL]);
  const components = new Map(stringList(context.params.tools).map((id) => [toolNameOf(id, taken), id]));
  const knowledgeBases = knowledgeBaseIds(context.params);
  const hits: RetrievalHit[] = [];
  const definitions: ToolDefinition[] = [...components].map(([name, id]) => ({
    name,
    description: `Runs the flow's component "${id}" on the text you give and returns its output.`,
    parameters: { type: "object", properties: { input: { type: "string", description: "The text the component works on (a question, a search query, a URL…)." } }, required: ["input"] },
  }));
  if (knowledgeBases.length > 0) {
    definitions.push({
      name: KNOWLEDGE_TOOL,
      description: "Searches the knowledge bases and returns the passages that match, each with its ID to cite as [ID:n].",
      parameters: { type: "object", properties: { query: { type: "string", description: "What to search for." } }, required: ["query"] },
    });
  }
  const argument = (call: ToolCall, key: string) => {
    const input = call.input as Record<string, unknown> | null;
    return typeof input?.[key] === "string" ? (input[key] as string) : "";
  };
  return {
    definitions,
    hits,
    async run(call) {
      if (call.name === KNOWLEDGE_TOOL && knowledgeBases.length > 0) {
        const params = withDefaults(retrievalComponent.params, { kb_ids: knowledgeBases, top_n: context.params.top_n });
        const { hits: chunks, notes } = await searchKnowledgeBases(context, params, argument(call, "query"));
        if (chunks.length === 0) return [localizedMessage(context.language, text("nothingFound")), ...notes].join("\n");
        const block = formatKnowledge(chunks, hits.length);
        hits.push(...chunks);
        return block;
      }
      const componentId = components.get(call.name);
      if (!componentId) throw componentError("BAD_REQUEST", NAME, "unknownTool", { tool: call.name });
      const output = await context.invoke(componentId, argument(call, "input"));
      return output.content || (output.items ?? []).map((item) => item.content).join("\n\n");
    },
  };
}

/** A tool's failure goes back to the model as the tool's result, so that it can try otherwise. */
function failure(context: ComponentContext, error: unknown): string {
  return failureText(error, context.language, `flows.agent ${context.componentId}`);
}

function conversation(context: ComponentContext): ChatMessage[] {
  const messages: ChatMessage[] = recentMessages(context.history, context.params.message_history_window_size).map((m) => ({
    role: m.role,
    content: m.role === "assistant" ? m.content.replace(/\s*\[ID:\d+\]/g, "") : m.content,
  }));
  const input = inputText(context);
  // A task flow (no conversation), or an Agent that reads another component's output: that text is the request.
  if (input && messages.at(-1)?.content !== input) messages.push({ role: "user", content: input });
  return messages.length > 0 ? messages : [{ role: "user", content: context.question }];
}

export const agentComponent: ComponentDefinition = {
  name: NAME,
  category: "core",
  restrictedTargets: ["Begin"],
  icon: "LuBot",
  needs: ["apiKey"],
  params: [
    DESCRIPTION,
    ...modelParams(),
    { key: "prompt", type: "text", label: text("params.prompt"), default: DEFAULT_PROMPT, widget: "prompt" },
    { key: "tools", type: "list", label: text("params.tools"), help: text("help.tools"), default: [], widget: "flowComponents" },
    { key: "kb_ids", type: "list", label: text("params.kb_ids"), default: [], widget: "knowledgeBases" },
    topN(8),
    { key: "max_rounds", type: "integer", label: text("params.max_rounds"), help: text("help.max_rounds"), min: 1, max: 20, default: 5 },
    historyWindow(12),
  ],
  outputs: [{ name: "tool_calls", label: text("outputs.tool_calls"), type: "json" }],
  checkInFlow: (params, flow, componentId) =>
    stringList(params.tools).flatMap((id, i): ParamIssue[] => {
      if (id === componentId) return [{ path: `tools.${i}`, code: "reference", messageKey: "flow.components.Agent.errors.selfTool" }];
      return flow.components[id] ? [] : [{ path: `tools.${i}`, code: "reference", messageKey: "flow.components.Agent.errors.unknownComponent", params: { component: id } }];
    }),
  async run(context) {
    const model = await chatModelOf(context);
    if (!model.capabilities?.tools) throw componentError("BAD_REQUEST", NAME, "toolsUnsupported");
    const tools = toolbox(context);
    const prompt = typeof context.params.prompt === "string" && context.params.prompt.trim() ? context.params.prompt : DEFAULT_PROMPT;
    const system = context.resolve(tools.definitions.some((t) => t.name === KNOWLEDGE_TOOL) ? `${CITATION_GUIDE}\n${prompt}` : prompt);
    const messages: ChatMessage[] = [{ role: "system", content: system }, ...conversation(context)];
    const settings = generationOptions(context.params, context.signal);
    const rounds = typeof context.params.max_rounds === "number" ? context.params.max_rounds : 5;
    const calls: { tool: string; input: unknown; error: boolean }[] = [];

    let answer = "";
    for (let round = 1; ; round++) {
      // The last round may not call tools: the model answers with what it has.
      const options: GenerationOptions = tools.definitions.length > 0 ? { ...settings, tools: tools.definitions, toolChoice: round > rounds ? "none" : "auto" } : settings;
      const turn = await completeTurn(model, messages, options);
      countCall(context, messages, turn.text + turn.toolCalls.map((c) => c.arguments).join(""), turn.usage);
      if (turn.toolCalls.length === 0 || round > rounds) {
        answer = turn.text;
        break;
      }
      messages.push({ role: "assistant", content: turn.text, toolCalls: turn.toolCalls.map(({ input: _, ...call }) => call) });
      for (const call of turn.toolCalls) {
        let result: string;
        let isError = false;
        try {
          result = await tools.run(call);
        } catch (error) {
          if (context.signal.aborted) throw error;
          result = failure(context, error);
          isError = true;
        }
        calls.push({ tool: call.name, input: call.input, error: isError });
        messages.push({ role: "tool", toolCallId: call.id, toolName: call.name, content: result, ...(isError ? { isError } : {}) });
      }
    }

    const content = tools.hits.length > 0 ? finalAnswer(answer, tools.hits, true) : answer;
    if (context.speaking) context.say(content);
    return {
      content,
      values: { tool_calls: calls },
      ...(tools.hits.length > 0 ? { reference: referenceOf(tools.hits, { total: tools.hits.length }, content) } : {}),
      spoken: context.speaking,
    };
  },
};
