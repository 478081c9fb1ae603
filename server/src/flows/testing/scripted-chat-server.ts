import type { ChatModel } from "../../models/model-types";
import { openAiApiCompatible } from "../../models/providers/openai-api-compatible";
import { sendJson, sseBody, startVendorServer, type RecordedRequest, type VendorServer } from "../../testing/vendor-servers";

/**
 * A local model server that speaks OpenAI's chat-completions protocol (streamed as OpenAI frames it) and answers
 * what the test's script decides from each request: a text, or tool calls (function calls, with their argument
 * text cut in two frames, as vendors stream them). For the model components' tests and for flows that need a
 * deterministic model that writes (the built-in model only quotes).
 */

export interface ScriptedMessage {
  role: string;
  content: string | null;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export interface ScriptedRequest {
  messages: ScriptedMessage[];
  tools: { function: { name: string } }[];
  body: Record<string, unknown>;
}

export type ScriptedAnswer = string | { toolCalls: { name: string; arguments: Record<string, unknown> }[] } | { status: number; error: string };

export interface ScriptedChatServer {
  /** Base URL ending with /v1. */
  url: string;
  /** The chat-completions requests received, oldest first. */
  requests(): ScriptedRequest[];
  /** A chat model of the OpenAI-API-compatible provider pointed at this server (it calls tools and answers JSON). */
  model(): ChatModel;
  script: (request: ScriptedRequest) => ScriptedAnswer;
  close(): Promise<void>;
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ id: "chatcmpl-scripted", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] });

function frames(answer: Exclude<ScriptedAnswer, { status: number }>): unknown[] {
  if (typeof answer === "string") {
    const words = answer.match(/\S+\s*|\s+/g) ?? [];
    return [chunk({ role: "assistant", content: "" }), ...words.map((word) => chunk({ content: word })), chunk({}, "stop")];
  }
  return [
    chunk({ role: "assistant", content: null }),
    ...answer.toolCalls.flatMap((call, index) => {
      const text = JSON.stringify(call.arguments);
      const half = Math.floor(text.length / 2);
      return [
        chunk({ tool_calls: [{ index, id: `call_${index}`, type: "function", function: { name: call.name, arguments: text.slice(0, half) } }] }),
        chunk({ tool_calls: [{ index, function: { arguments: text.slice(half) } }] }),
      ];
    }),
    chunk({}, "tool_calls"),
  ];
}

const requestOf = (recorded: RecordedRequest): ScriptedRequest => {
  const body = (recorded.json ?? {}) as Record<string, unknown>;
  return { messages: (body.messages ?? []) as ScriptedMessage[], tools: (body.tools ?? []) as ScriptedRequest["tools"], body };
};

export async function startScriptedChatServer(script: ScriptedChatServer["script"]): Promise<ScriptedChatServer> {
  let vendor: VendorServer;
  const scripted: ScriptedChatServer = {
    url: "",
    script,
    requests: () => vendor.requests.filter((r) => r.path.endsWith("/chat/completions")).map(requestOf),
    model: () => openAiApiCompatible.create("chat", { modelName: "scripted", credentials: { apiKey: "", baseUrl: scripted.url } }),
    close: () => vendor.close(),
  };
  vendor = await startVendorServer((recorded, response) => {
    if (!recorded.path.endsWith("/chat/completions")) return sendJson(response, 404, { error: { message: "not found" } });
    const answer = scripted.script(requestOf(recorded));
    if (typeof answer === "object" && "status" in answer) return sendJson(response, answer.status, { error: { message: answer.error } });
    const usage = { prompt_tokens: 40, completion_tokens: 7, total_tokens: 47 };
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.end(sseBody([...frames(answer).map((data) => ({ data })), { data: { id: "chatcmpl-scripted", choices: [], usage } }, "[DONE]"]));
  });
  scripted.url = `${vendor.url}/v1`;
  return scripted;
}
