import { DomainError } from "../platform/errors";
import { notJson } from "./http";
import type {
  ChatCapabilities,
  ChatEvent,
  ChatMessage,
  ChatModel,
  FinishReason,
  GenerationOptions,
  JsonSchema,
  TokenUsage,
  ToolCall,
  ToolChoice,
  ToolDefinition,
} from "./model-types";

/** What every vendor module shares about tool calls and structured output, beyond the wire formats. */

export const TEXT_ONLY: ChatCapabilities = { tools: false, structuredOutput: false };
export const TOOLS_AND_JSON: ChatCapabilities = { tools: true, structuredOutput: true };

/** A request needs tools when it offers them or when its history holds tool calls or results. */
function needsTools(messages: ChatMessage[], options: GenerationOptions): boolean {
  return (options.tools?.length ?? 0) > 0 || messages.some((m) => m.role === "tool" || (m.toolCalls?.length ?? 0) > 0);
}

/**
 * Refuses a request the model cannot honour, rather than letting it answer in plain text as if it had:
 * tools or a JSON answer from a model without them, or a tool choice that names no offered tool.
 */
export function refuseUnsupported(provider: string, capabilities: ChatCapabilities, messages: ChatMessage[], options: GenerationOptions = {}): void {
  if (needsTools(messages, options) && !capabilities.tools) throw new DomainError("BAD_REQUEST", "errors.model.toolsUnsupported", { provider });
  if (options.responseFormat?.type === "json" && !capabilities.structuredOutput) {
    throw new DomainError("BAD_REQUEST", "errors.model.structuredOutputUnsupported", { provider });
  }
  const choice = options.toolChoice;
  if (typeof choice === "object" && !options.tools?.some((tool) => tool.name === choice.tool)) {
    throw new DomainError("BAD_REQUEST", "errors.model.toolChoiceUnknown", { provider, tool: choice.tool });
  }
}

/** A chat model whose requests are checked against its capabilities first: every provider's chat goes through this (pickClient). */
export function guardedChat(provider: string, chat: ChatModel): ChatModel {
  const capabilities = chat.capabilities ?? TEXT_ONLY;
  return {
    capabilities,
    ...(chat.extractive ? { extractive: true } : {}),
    async *stream(messages, options) {
      refuseUnsupported(provider, capabilities, messages, options);
      yield* chat.stream(messages, options);
    },
  };
}

/** A tool call whose argument text is complete: parsed, or refused as the vendor's fault when it is not JSON. */
function completedCall(provider: string, call: { id: string; name: string; arguments: string; providerMetadata?: Record<string, string> }): Extract<ChatEvent, { type: "tool-call" }> {
  // A call without arguments is a call with none (OpenAI-style servers send "" for a tool without parameters).
  const text = call.arguments.trim() === "" ? "{}" : call.arguments;
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    throw notJson(provider, `the arguments of the call to ${call.name}`);
  }
  return { type: "tool-call", id: call.id, name: call.name, arguments: text, input, ...(call.providerMetadata ? { providerMetadata: call.providerMetadata } : {}) };
}

/** The vendor's handle for a call in progress. */
type CallKey = number | string | symbol;

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Tool calls that arrive in pieces, keyed by the vendor's handle for them (OpenAI's `index`, Anthropic's
 * and Bedrock's content-block index): `add` yields the argument text as it comes, `finish` the whole calls
 * in the order they began.
 */
export class ToolCallAssembler {
  private readonly calls = new Map<CallKey, PartialCall>();
  /** How many calls began, including calls already taken. */
  private begun = 0;

  constructor(private readonly provider: string) {}

  /** Whether the model called any tool in this turn. */
  get called(): boolean {
    return this.begun > 0;
  }

  /** A piece of a call: its id and name when they first appear, then fragments of its argument text. */
  *add(key: CallKey, piece: { id?: string; name?: string; arguments?: string }): Generator<ChatEvent> {
    let call = this.calls.get(key);
    if (!call) {
      // Vendors that give calls no id (Gemini, Ollama) get one, unique within the turn.
      call = { id: piece.id || `call_${this.begun}`, name: piece.name ?? "", arguments: "" };
      this.calls.set(key, call);
      this.begun++;
    } else if (!call.name && piece.name) {
      call.name = piece.name;
    }
    if (piece.arguments) {
      call.arguments += piece.arguments;
      yield { type: "tool-call-delta", id: call.id, name: call.name, argumentsDelta: piece.arguments };
    }
  }

  /** The call under `key`, complete, and forgotten (Anthropic and Bedrock say when each block ends). */
  take(key: CallKey): Extract<ChatEvent, { type: "tool-call" }> | undefined {
    const call = this.calls.get(key);
    if (!call) return undefined;
    this.calls.delete(key);
    return completedCall(this.provider, call);
  }

  /** A call that arrived in one piece (Gemini, Ollama): its argument text as one delta, then the call. */
  *whole(piece: { id?: string; name?: string; arguments: string }, providerMetadata?: Record<string, string>): Generator<ChatEvent> {
    const key = Symbol.for("whole");
    yield* this.add(key, piece);
    const call = this.take(key)!;
    yield providerMetadata ? { ...call, providerMetadata } : call;
  }

  /** Every call not yet taken, complete. */
  *finish(): Generator<ChatEvent> {
    for (const key of [...this.calls.keys()]) yield this.take(key)!;
  }
}

/** A name a vendor accepts for the tool that carries a structured answer (letters, digits, _ and -, at most 64). */
export function answerToolName(name: string | undefined): string {
  return (name ?? "json_answer").replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) || "json_answer";
}

/** The tools to offer and the choice to send when a vendor has no JSON mode and a structured answer is the input of a forced tool call. */
export interface ToolPlan {
  tools: ToolDefinition[];
  choice: ToolChoice | undefined;
  /** The tool whose input is the answer, when a JSON answer was asked for: its calls are passed on as text. */
  answerTool?: string;
}

/**
 * Structured output by forced tool (Anthropic, Bedrock): the answer's schema becomes one more tool, which
 * the model must call; with tools of the caller's beside it, the model must call one of them or it.
 */
export function toolPlan(options: GenerationOptions): ToolPlan {
  const tools = options.tools ?? [];
  const format = options.responseFormat;
  if (format?.type !== "json") return { tools, choice: tools.length > 0 ? options.toolChoice : undefined };
  const answerTool = answerToolName(format.name);
  const answer: ToolDefinition = {
    name: answerTool,
    description: format.description ?? "Give the answer as this tool's input.",
    parameters: format.schema ?? { type: "object" },
  };
  return { tools: [...tools, answer], choice: tools.length > 0 ? "required" : { tool: answerTool }, answerTool };
}

/** The arguments of a call from the history, for vendors that take them as an object (they were checked as JSON when the call arrived). */
export function argumentsObject(text: string): Record<string, unknown> {
  return text.trim() === "" ? {} : (JSON.parse(text) as Record<string, unknown>);
}

/**
 * For a vendor whose JSON mode takes no schema (DeepSeek): the request's messages with a system message
 * that asks for JSON (DeepSeek refuses JSON mode when the prompt does not say "JSON") and gives the schema.
 */
export function withJsonInstruction(messages: ChatMessage[], format: { schema?: JsonSchema }): ChatMessage[] {
  const instruction = `Answer with JSON only${format.schema ? `, matching this JSON Schema: ${JSON.stringify(format.schema)}` : "."}`;
  return [{ role: "system", content: instruction }, ...messages];
}

/** What one complete chat call said: its text, the tool calls it made, its usage and why it stopped. */
export interface ChatTurn {
  text: string;
  toolCalls: ToolCall[];
  usage?: TokenUsage;
  finishReason: FinishReason;
}

/** Reads a whole chat stream into one turn, for callers that act on tool calls rather than stream them. */
export async function completeTurn(model: ChatModel, messages: ChatMessage[], options?: GenerationOptions): Promise<ChatTurn> {
  const turn: ChatTurn = { text: "", toolCalls: [], finishReason: "other" };
  for await (const event of model.stream(messages, options)) {
    if (event.type === "delta") turn.text += event.text;
    else if (event.type === "tool-call") {
      const { type: _, ...call } = event;
      turn.toolCalls.push(call);
    }
    else if (event.type === "usage") turn.usage = event.usage;
    else if (event.type === "finish") turn.finishReason = event.reason;
  }
  return turn;
}

/** A structured answer: asks for JSON (matching `schema` when given) and parses what comes back. */
export async function completeJson(
  model: ChatModel,
  messages: ChatMessage[],
  format: { schema?: JsonSchema; name?: string; description?: string },
  options: GenerationOptions = {},
): Promise<unknown> {
  const turn = await completeTurn(model, messages, { ...options, responseFormat: { type: "json", ...format } });
  try {
    return JSON.parse(turn.text);
  } catch {
    throw notJson("The chat model", "the structured answer");
  }
}
