import { DomainError } from "../../platform/errors";
import { completeJson, completeTurn } from "../chat-tools";
import type { ChatMessage, ToolDefinition } from "../model-types";
import { expectTranslatedEverywhere } from "../testing/translated";
import { collect, sendJson, sseBody, startVendorServer, writeSlowly, type VendorServer } from "../../testing/vendor-servers";
import { openAiClient, bearerEndpoint } from "./openai-compatible";
import { deepSeek } from "./deepseek";
import { openAi } from "./openai";

let server: VendorServer;

beforeAll(async () => {
  server = await startVendorServer((_, response) => sendJson(response, 500, { error: { message: "no handler" } }));
});
afterAll(() => server.close());

const chat = () => openAi.create("chat", { modelName: "gpt-4o-mini", credentials: { apiKey: "sk-test", baseUrl: `${server.url}/v1` } });

const WEATHER: ToolDefinition = {
  name: "get_weather",
  description: "The weather in a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const TIME: ToolDefinition = { name: "get_time", parameters: { type: "object", properties: {} } };

function chunk(delta: Record<string, unknown>, finish: string | null = null) {
  return { id: "chatcmpl-1", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] };
}

/** Answers with these chunks as a chat-completions stream, cut into 7-byte writes so frames split mid-JSON. */
function answer(chunks: unknown[]) {
  const body = sseBody([...chunks.map((data) => ({ data })), { data: { id: "chatcmpl-1", choices: [], usage: { prompt_tokens: 30, completion_tokens: 9, total_tokens: 39 } } }, "[DONE]"]);
  server.handle((_, response) => writeSlowly(response, 200, { "content-type": "text/event-stream" }, body, { pieceSize: 7 }));
}

describe("OpenAI-compatible tool calls", () => {
  it("reassembles two tool calls whose argument fragments arrive interleaved across chunks, and sends tools and tool_choice in OpenAI's names", async () => {
    answer([
      chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "get_weather", arguments: "" } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }),
      chunk({ tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "get_time", arguments: "{" } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty": "Zürich"}' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: "}" } }] }),
      chunk({}, "tool_calls"),
    ]);
    const events = await collect(chat().stream([{ role: "user", content: "Weather and time in Zürich?" }], { tools: [WEATHER, TIME], toolChoice: "required" }));
    expect(events).toEqual([
      { type: "tool-call-delta", id: "call_a", name: "get_weather", argumentsDelta: '{"ci' },
      { type: "tool-call-delta", id: "call_b", name: "get_time", argumentsDelta: "{" },
      { type: "tool-call-delta", id: "call_a", name: "get_weather", argumentsDelta: 'ty": "Zürich"}' },
      { type: "tool-call-delta", id: "call_b", name: "get_time", argumentsDelta: "}" },
      { type: "tool-call", id: "call_a", name: "get_weather", arguments: '{"city": "Zürich"}', input: { city: "Zürich" } },
      { type: "tool-call", id: "call_b", name: "get_time", arguments: "{}", input: {} },
      { type: "usage", usage: { promptTokens: 30, completionTokens: 9, totalTokens: 39 } },
      { type: "finish", reason: "tool-calls" },
    ]);
    expect(server.last().json).toEqual(
      expect.objectContaining({
        tools: [
          { type: "function", function: { name: "get_weather", description: "The weather in a city", parameters: WEATHER.parameters } },
          { type: "function", function: { name: "get_time", parameters: TIME.parameters } },
        ],
        tool_choice: "required",
      }),
    );
  });

  it("sends a tool result round-trip as an assistant message with tool_calls and a tool message, and names a forced tool", async () => {
    answer([chunk({ content: "It is 21 °C in Zürich." }), chunk({}, "stop")]);
    const history: ChatMessage[] = [
      { role: "user", content: "Weather in Zürich?" },
      { role: "assistant", content: "", toolCalls: [{ id: "call_a", name: "get_weather", arguments: '{"city":"Zürich"}' }] },
      { role: "tool", toolCallId: "call_a", toolName: "get_weather", content: '{"celsius":21}' },
    ];
    const turn = await completeTurn(chat(), history, { tools: [WEATHER], toolChoice: { tool: "get_weather" } });
    expect(turn).toEqual({ text: "It is 21 °C in Zürich.", toolCalls: [], usage: { promptTokens: 30, completionTokens: 9, totalTokens: 39 }, finishReason: "stop" });
    expect(server.last().json.messages).toEqual([
      { role: "user", content: "Weather in Zürich?" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city":"Zürich"}' } }] },
      { role: "tool", tool_call_id: "call_a", content: '{"celsius":21}' },
    ]);
    expect(server.last().json.tool_choice).toEqual({ type: "function", function: { name: "get_weather" } });
  });

  it("asks for a JSON-schema answer with response_format json_schema, and for any JSON with json_object; the streamed answer parses", async () => {
    const schema = { type: "object", properties: { city: { type: "string" }, celsius: { type: "number" } }, required: ["city", "celsius"], additionalProperties: false };
    answer([chunk({ content: '{"city":"Zür' }), chunk({ content: 'ich","celsius":21}' }), chunk({}, "stop")]);
    await expect(completeJson(chat(), [{ role: "user", content: "Weather?" }], { schema, name: "weather" })).resolves.toEqual({ city: "Zürich", celsius: 21 });
    expect(server.last().json.response_format).toEqual({ type: "json_schema", json_schema: { name: "weather", schema } });
    expect(server.last().json).not.toHaveProperty("tools");

    answer([chunk({ content: "[1, 2]" }), chunk({}, "stop")]);
    await expect(completeJson(chat(), [{ role: "user", content: "Two numbers" }], {})).resolves.toEqual([1, 2]);
    expect(server.last().json.response_format).toEqual({ type: "json_object" });
  });

  it("gives DeepSeek, whose JSON mode takes no schema, json_object and the schema in a system message that says JSON", async () => {
    const schema = { type: "object", properties: { celsius: { type: "number" } } };
    answer([chunk({ content: '{"celsius": 21}' }), chunk({}, "stop")]);
    const deepSeekChat = deepSeek.create("chat", { modelName: "deepseek-chat", credentials: { apiKey: "sk-test", baseUrl: `${server.url}/v1` } });
    await expect(completeJson(deepSeekChat, [{ role: "user", content: "Weather?" }], { schema })).resolves.toEqual({ celsius: 21 });
    expect(server.last().json.response_format).toEqual({ type: "json_object" });
    expect(server.last().json.messages).toEqual([
      { role: "system", content: `Answer with JSON only, matching this JSON Schema: ${JSON.stringify(schema)}` },
      { role: "user", content: "Weather?" },
    ]);
  });

  it("refuses arguments that are not JSON as the vendor's fault", async () => {
    answer([chunk({ tool_calls: [{ index: 0, id: "call_a", function: { name: "get_weather", arguments: '{"city": ' } }] }), chunk({}, "tool_calls")]);
    await expect(collect(chat().stream([{ role: "user", content: "Weather?" }], { tools: [WEATHER] }))).rejects.toMatchObject({
      messageKey: "errors.model.badRequest",
      params: expect.objectContaining({ detail: "the arguments of the call to get_weather is not JSON" }),
    });
  });

  it("a vendor whose models lack tools or JSON answers refuses them with a translated error before calling, as does a choice of a tool not offered", async () => {
    const textOnly = openAiClient("chat", bearerEndpoint("Plain Vendor", `${server.url}/v1`, "", "m"), { chatCapabilities: { tools: false, structuredOutput: false } });
    expect(textOnly.capabilities).toEqual({ tools: false, structuredOutput: false });
    const before = server.requests.length;
    const toolsError = await collect(textOnly.stream([{ role: "user", content: "Hi" }], { tools: [WEATHER] })).catch((e: unknown) => e);
    expect(toolsError).toBeInstanceOf(DomainError);
    expect(toolsError).toMatchObject({ kind: "BAD_REQUEST", messageKey: "errors.model.toolsUnsupported", params: { provider: "Plain Vendor" } });
    expectTranslatedEverywhere("errors.model.toolsUnsupported", { provider: "Plain Vendor" });
    expectTranslatedEverywhere("errors.model.structuredOutputUnsupported", { provider: "Plain Vendor" });
    // A history with tool turns needs tools just as much.
    await expect(collect(textOnly.stream([{ role: "tool", toolCallId: "c", toolName: "t", content: "1" }]))).rejects.toMatchObject({ messageKey: "errors.model.toolsUnsupported" });
    await expect(collect(textOnly.stream([{ role: "user", content: "Hi" }], { responseFormat: { type: "json" } }))).rejects.toMatchObject({
      messageKey: "errors.model.structuredOutputUnsupported",
    });
    await expect(collect(chat().stream([{ role: "user", content: "Hi" }], { tools: [WEATHER], toolChoice: { tool: "get_time" } }))).rejects.toMatchObject({
      messageKey: "errors.model.toolChoiceUnknown",
      params: { provider: "OpenAI", tool: "get_time" },
    });
    expect(server.requests.length).toBe(before);
  });
});
