import { argumentsObject, type ToolCallAssembler } from "../chat-tools";
import type { ChatEvent, ChatMessage, FinishReason, GenerationOptions } from "../model-types";

/**
 * What the Gemini API (AI Studio keys) and Vertex AI share of generateContent: contents and parts,
 * function declarations and calls, JSON answers. Each module keeps its own addresses, keys and errors.
 */

export interface GeminiPart {
  text?: string;
  /** A thinking model's reasoning, when it is asked to include it: not part of the answer. */
  thought?: boolean;
  inlineData?: { mimeType: string; data: string };
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> };
  functionResponse?: { name: string; response: Record<string, unknown> };
  /** Gemini 3 signs its function calls; a call sent back without its signature is refused. */
  thoughtSignature?: string;
}

/**
 * Gemini's contents: roles user and model, the system prompt apart, consecutive turns of one role merged
 * (so that the results of parallel calls share one turn). A tool result is a user turn's functionResponse.
 */
export function geminiContents(messages: ChatMessage[]) {
  const system: GeminiPart[] = [];
  const contents: { role: "user" | "model"; parts: GeminiPart[] }[] = [];
  for (const message of messages) {
    if (message.role === "system") {
      if (message.content) system.push({ text: message.content });
      continue;
    }
    const parts: GeminiPart[] = (message.images ?? []).map((image) => ({ inlineData: { mimeType: image.mimeType, data: image.data.toString("base64") } }));
    if (message.role === "tool") parts.push({ functionResponse: { name: message.toolName ?? "", response: functionResponse(message) } });
    else if (message.content) parts.push({ text: message.content });
    for (const call of message.toolCalls ?? []) {
      const signature = call.providerMetadata?.thoughtSignature;
      parts.push({ functionCall: { name: call.name, args: argumentsObject(call.arguments) }, ...(signature ? { thoughtSignature: signature } : {}) });
    }
    const role = message.role === "assistant" ? "model" : "user";
    const previous = contents.at(-1);
    if (previous?.role === role) previous.parts.push(...parts);
    else contents.push({ role, parts });
  }
  return { contents, systemInstruction: system.length > 0 ? { parts: system } : undefined };
}

/**
 * A functionResponse's `response`, which must be an object: a JSON object result as it is, any other
 * result under "output" and a failure under "error", the keys Google documents for the two.
 */
function functionResponse(message: ChatMessage): Record<string, unknown> {
  if (message.isError) return { error: message.content };
  try {
    const value = JSON.parse(message.content) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { output: value };
  } catch {
    return { output: message.content };
  }
}

const CALLING_MODES = { auto: "AUTO", none: "NONE", required: "ANY" } as const;

/**
 * Function declarations with their JSON Schemas (`parametersJsonSchema`, which, unlike `parameters`,
 * takes JSON Schema as it is) and the calling mode; a named tool is mode ANY limited to that name.
 */
export function geminiTools(options: GenerationOptions): Record<string, unknown> {
  if (!options.tools?.length) return {};
  const choice = options.toolChoice;
  const functionCallingConfig =
    choice === undefined ? undefined : typeof choice === "object" ? { mode: "ANY", allowedFunctionNames: [choice.tool] } : { mode: CALLING_MODES[choice] };
  return {
    tools: [
      {
        functionDeclarations: options.tools.map((tool) => ({ name: tool.name, ...(tool.description ? { description: tool.description } : {}), parametersJsonSchema: tool.parameters })),
      },
    ],
    ...(functionCallingConfig ? { toolConfig: { functionCallingConfig } } : {}),
  };
}

/** The generationConfig fields of a JSON answer: `responseJsonSchema` takes JSON Schema as it is (`responseSchema`, an OpenAPI subset, refuses additionalProperties). */
export function geminiJsonConfig(options: GenerationOptions): Record<string, unknown> {
  const format = options.responseFormat;
  if (format?.type !== "json") return {};
  return { responseMimeType: "application/json", ...(format.schema ? { responseJsonSchema: format.schema } : {}) };
}

/** The events of one candidate's parts: its text (not its thoughts), and its function calls, which Gemini sends whole. */
export function* geminiPartEvents(parts: GeminiPart[], toolCalls: ToolCallAssembler): Generator<ChatEvent> {
  for (const part of parts) {
    if (part.functionCall) {
      const call = { id: part.functionCall.id, name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) };
      yield* toolCalls.whole(call, part.thoughtSignature ? { thoughtSignature: part.thoughtSignature } : undefined);
    } else if (part.text && !part.thought) {
      yield { type: "delta", text: part.text };
    }
  }
}

const CONTENT_FILTERS = ["SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY"];

/** A candidate's finishReason; Gemini ends a turn of function calls with STOP, which is then "tool-calls". */
export function geminiFinishReason(reason: string, toolCalls: ToolCallAssembler): FinishReason {
  if (reason === "STOP") return toolCalls.called ? "tool-calls" : "stop";
  if (reason === "MAX_TOKENS") return "length";
  if (CONTENT_FILTERS.includes(reason)) return "content_filter";
  return "other";
}
