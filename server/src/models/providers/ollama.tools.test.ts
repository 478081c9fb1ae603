import { completeJson, completeTurn } from "../chat-tools";
import type { ToolDefinition } from "../model-types";
import { collect, startVendorServer, writeSlowly, type VendorServer } from "../../testing/vendor-servers";
import { ollama } from "./ollama";

const WEATHER: ToolDefinition = { name: "get_weather", description: "The weather in a city", parameters: { type: "object", properties: { city: { type: "string" } } } };
const TIME: ToolDefinition = { name: "get_time", parameters: { type: "object", properties: {} } };

let server: VendorServer;
let body = "";

beforeAll(async () => {
  // The next answer, cut into 7-byte writes so that lines split mid-JSON.
  server = await startVendorServer((_, response) => writeSlowly(response, 200, { "content-type": "application/x-ndjson" }, body, { pieceSize: 7 }));
});
afterAll(() => server.close());

const chat = () => ollama.create("chat", { modelName: "qwen3", credentials: { baseUrl: server.url } });

/** /api/chat's NDJSON: these messages, one per line, then the done line. */
function chatLines(messages: Record<string, unknown>[]): string {
  const line = (message: Record<string, unknown>, done = false) => ({ model: "qwen3", created_at: "2025-05-27T22:54:57Z", message: { role: "assistant", content: "", ...message }, done });
  return [...messages.map((m) => line(m)), { ...line({}, true), done_reason: "stop", prompt_eval_count: 40, eval_count: 12 }].map((l) => `${JSON.stringify(l)}\n`).join("");
}

describe("Ollama tool calls", () => {
  it("passes on tool calls from message.tool_calls in separate lines, and offers the tools in Ollama's format", async () => {
    body = chatLines([
      { thinking: "The user wants weather." },
      { tool_calls: [{ function: { name: "get_weather", arguments: { city: "Zürich" } } }] },
      { tool_calls: [{ id: "call_x", function: { index: 1, name: "get_time", arguments: {} } }] },
    ]);
    const events = await collect(chat().stream([{ role: "user", content: "Weather and time in Zürich?" }], { tools: [WEATHER, TIME] }));
    expect(events).toEqual([
      { type: "delta", text: "<think>" },
      { type: "delta", text: "The user wants weather." },
      { type: "tool-call-delta", id: "call_0", name: "get_weather", argumentsDelta: '{"city":"Zürich"}' },
      { type: "tool-call", id: "call_0", name: "get_weather", arguments: '{"city":"Zürich"}', input: { city: "Zürich" } },
      { type: "tool-call-delta", id: "call_x", name: "get_time", argumentsDelta: "{}" },
      { type: "tool-call", id: "call_x", name: "get_time", arguments: "{}", input: {} },
      { type: "delta", text: "</think>" },
      { type: "usage", usage: { promptTokens: 40, completionTokens: 12, totalTokens: 52 } },
      { type: "finish", reason: "tool-calls" },
    ]);
    expect(server.last().json.tools).toEqual([
      { type: "function", function: { name: "get_weather", description: "The weather in a city", parameters: WEATHER.parameters } },
      { type: "function", function: { name: "get_time", parameters: TIME.parameters } },
    ]);
  });

  it("sends a tool result round-trip as tool_calls with object arguments and tool messages naming the tool; a named tool is the only one offered, none offers none", async () => {
    body = chatLines([{ content: "21 °C." }]);
    const history = [
      { role: "user" as const, content: "Weather in Zürich?" },
      { role: "assistant" as const, content: "", toolCalls: [{ id: "call_0", name: "get_weather", arguments: '{"city":"Zürich"}' }] },
      { role: "tool" as const, toolCallId: "call_0", toolName: "get_weather", content: '{"celsius":21}' },
    ];
    const turn = await completeTurn(chat(), history, { tools: [WEATHER, TIME], toolChoice: { tool: "get_weather" } });
    expect(turn).toMatchObject({ text: "21 °C.", toolCalls: [], finishReason: "stop" });
    expect(server.last().json.messages).toEqual([
      { role: "user", content: "Weather in Zürich?" },
      { role: "assistant", content: "", tool_calls: [{ function: { name: "get_weather", arguments: { city: "Zürich" } } }] },
      { role: "tool", tool_name: "get_weather", content: '{"celsius":21}' },
    ]);
    expect(server.last().json.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(["get_weather"]);

    await completeTurn(chat(), history, { tools: [WEATHER], toolChoice: "none" });
    expect(server.last().json).not.toHaveProperty("tools");
  });

  it("asks for a JSON-schema answer with format set to the schema, or to json, and the streamed answer parses", async () => {
    const schema = { type: "object", properties: { celsius: { type: "number" } }, required: ["celsius"] };
    body = chatLines([{ content: '{"cel' }, { content: 'sius": 21}' }]);
    await expect(completeJson(chat(), [{ role: "user", content: "Weather?" }], { schema })).resolves.toEqual({ celsius: 21 });
    expect(server.last().json.format).toEqual(schema);

    body = chatLines([{ content: "[1, 2]" }]);
    await expect(completeJson(chat(), [{ role: "user", content: "Two numbers" }], {})).resolves.toEqual([1, 2]);
    expect(server.last().json.format).toBe("json");
  });
});
