import { completeJson, completeTurn } from "../chat-tools";
import type { ToolDefinition } from "../model-types";
import { collect, sseBody, startVendorServer, writeSlowly, type VendorServer } from "../../testing/vendor-servers";
import { gemini } from "./gemini";

const WEATHER: ToolDefinition = { name: "get_weather", description: "The weather in a city", parameters: { type: "object", properties: { city: { type: "string" } } } };
const TIME: ToolDefinition = { name: "get_time", parameters: { type: "object", properties: {}, additionalProperties: false } };
const USAGE = { promptTokenCount: 30, candidatesTokenCount: 10, totalTokenCount: 40 };

let server: VendorServer;
let body = "";

beforeAll(async () => {
  // The next answer, cut into 11-byte writes so that chunks split mid-JSON.
  server = await startVendorServer((_, response) => writeSlowly(response, 200, { "content-type": "text/event-stream" }, body, { pieceSize: 11 }));
});
afterAll(() => server.close());

const chat = () => gemini.create("chat", { modelName: "gemini-2.5-flash", credentials: { apiKey: "AIza-test", baseUrl: server.url } });

/** streamGenerateContent?alt=sse with one chunk per list of parts; the last carries the finish reason. */
function generateStream(chunks: Record<string, unknown>[][]): string {
  return sseBody(
    chunks.map((parts, i) => ({
      data: { candidates: [{ content: { role: "model", parts }, index: 0, ...(i === chunks.length - 1 ? { finishReason: "STOP" } : {}) }], usageMetadata: USAGE },
    })),
  );
}

describe("Gemini function calling", () => {
  it("passes on function calls that arrive in separate chunks, with their thought signatures, and declares the tools with their JSON Schemas", async () => {
    body = generateStream([
      [{ text: "Checking." }],
      [{ functionCall: { name: "get_weather", args: { city: "Zürich" } }, thoughtSignature: "c2lnbmF0dXJl" }],
      [{ functionCall: { name: "get_time", args: {} } }],
    ]);
    const events = await collect(chat().stream([{ role: "user", content: "Weather and time in Zürich?" }], { tools: [WEATHER, TIME], toolChoice: "required" }));
    expect(events).toEqual([
      { type: "delta", text: "Checking." },
      { type: "tool-call-delta", id: "call_0", name: "get_weather", argumentsDelta: '{"city":"Zürich"}' },
      { type: "tool-call", id: "call_0", name: "get_weather", arguments: '{"city":"Zürich"}', input: { city: "Zürich" }, providerMetadata: { thoughtSignature: "c2lnbmF0dXJl" } },
      { type: "tool-call-delta", id: "call_1", name: "get_time", argumentsDelta: "{}" },
      { type: "tool-call", id: "call_1", name: "get_time", arguments: "{}", input: {} },
      { type: "usage", usage: { promptTokens: 30, completionTokens: 10, totalTokens: 40 } },
      { type: "finish", reason: "tool-calls" },
    ]);
    expect(server.last().json.tools).toEqual([
      {
        functionDeclarations: [
          { name: "get_weather", description: "The weather in a city", parametersJsonSchema: WEATHER.parameters },
          { name: "get_time", parametersJsonSchema: TIME.parameters },
        ],
      },
    ]);
    expect(server.last().json.toolConfig).toEqual({ functionCallingConfig: { mode: "ANY" } });
  });

  it("sends a tool result round-trip as functionCall parts with their signatures and one user turn of functionResponse parts", async () => {
    body = generateStream([[{ text: "21 °C in Zürich." }]]);
    const turn = await completeTurn(
      chat(),
      [
        { role: "user", content: "Weather in Zürich and Bern?" },
        {
          role: "assistant",
          content: "",
          toolCalls: [
            { id: "call_0", name: "get_weather", arguments: '{"city":"Zürich"}', providerMetadata: { thoughtSignature: "c2ln" } },
            { id: "call_1", name: "get_weather", arguments: '{"city":"Bern"}' },
          ],
        },
        { role: "tool", toolCallId: "call_0", toolName: "get_weather", content: '{"celsius":21}' },
        { role: "tool", toolCallId: "call_1", toolName: "get_weather", content: "no station", isError: true },
      ],
      { tools: [WEATHER], toolChoice: { tool: "get_weather" } },
    );
    expect(turn).toMatchObject({ text: "21 °C in Zürich.", toolCalls: [], finishReason: "stop" });
    expect(server.last().json.contents).toEqual([
      { role: "user", parts: [{ text: "Weather in Zürich and Bern?" }] },
      {
        role: "model",
        parts: [{ functionCall: { name: "get_weather", args: { city: "Zürich" } }, thoughtSignature: "c2ln" }, { functionCall: { name: "get_weather", args: { city: "Bern" } } }],
      },
      {
        role: "user",
        parts: [{ functionResponse: { name: "get_weather", response: { celsius: 21 } } }, { functionResponse: { name: "get_weather", response: { error: "no station" } } }],
      },
    ]);
    expect(server.last().json.toolConfig).toEqual({ functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] } });
  });

  it("asks for a JSON-schema answer with responseMimeType and responseJsonSchema, and the streamed answer parses", async () => {
    const schema = { type: "object", properties: { celsius: { type: "number" } }, required: ["celsius"], additionalProperties: false };
    body = generateStream([[{ text: '{"cel' }], [{ text: 'sius": 21}' }]]);
    await expect(completeJson(chat(), [{ role: "user", content: "Weather?" }], { schema })).resolves.toEqual({ celsius: 21 });
    expect(server.last().json.generationConfig).toEqual({ responseMimeType: "application/json", responseJsonSchema: schema });
    expect(server.last().json).not.toHaveProperty("tools");

    body = generateStream([[{ text: "[1, 2]" }]]);
    await expect(completeJson(chat(), [{ role: "user", content: "Two numbers" }], {})).resolves.toEqual([1, 2]);
    expect(server.last().json.generationConfig).toEqual({ responseMimeType: "application/json" });
  });
});
