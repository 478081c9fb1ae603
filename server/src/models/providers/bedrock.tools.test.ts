import { completeJson, completeTurn } from "../chat-tools";
import type { ToolDefinition } from "../model-types";
import { eventStreamFrame as frame } from "../testing/aws-event-stream";
import { collect, startVendorServer, writeSlowly, type VendorServer } from "../../testing/vendor-servers";
import { bedrockProvider } from "./bedrock";

const CLAUDE = "anthropic.claude-3-haiku-20240307-v1:0";
const credentials = { accessKey: "AKIAIOSFODNN7EXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", region: "us-east-1" };
const WEATHER: ToolDefinition = { name: "get_weather", description: "The weather in a city", parameters: { type: "object", properties: { city: { type: "string" } } } };
const USAGE = frame("metadata", { usage: { inputTokens: 40, outputTokens: 12, totalTokens: 52 }, metrics: { latencyMs: 90 } });

let server: VendorServer;
let frames: Buffer[] = [];

beforeAll(async () => {
  // The frames of the next answer, cut into 9-byte writes so that events split mid-frame.
  server = await startVendorServer((_, response) => writeSlowly(response, 200, { "content-type": "application/vnd.amazon.eventstream" }, frames, { pieceSize: 9 }), { http2: true });
});
afterAll(() => server.close());

const chat = () => bedrockProvider({ endpoint: server.url, timeoutMs: 2_000 }).create("chat", { modelName: CLAUDE, credentials });

describe("Bedrock Converse tool calls", () => {
  it("reassembles a toolUse whose input arrives in fragments across events, after text, and sends the tools as a toolConfig", async () => {
    frames = [
      frame("messageStart", { role: "assistant" }),
      frame("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Let me look." } }),
      frame("contentBlockStop", { contentBlockIndex: 0 }),
      frame("contentBlockStart", { contentBlockIndex: 1, start: { toolUse: { toolUseId: "tooluse_1", name: "get_weather" } } }),
      frame("contentBlockDelta", { contentBlockIndex: 1, delta: { toolUse: { input: '{"city":' } } }),
      frame("contentBlockDelta", { contentBlockIndex: 1, delta: { toolUse: { input: '"Zürich"}' } } }),
      frame("contentBlockStop", { contentBlockIndex: 1 }),
      frame("messageStop", { stopReason: "tool_use" }),
      USAGE,
    ];
    const events = await collect(chat().stream([{ role: "user", content: "Weather in Zürich?" }], { tools: [WEATHER], toolChoice: "required" }));
    expect(events).toEqual([
      { type: "delta", text: "Let me look." },
      { type: "tool-call-delta", id: "tooluse_1", name: "get_weather", argumentsDelta: '{"city":' },
      { type: "tool-call-delta", id: "tooluse_1", name: "get_weather", argumentsDelta: '"Zürich"}' },
      { type: "tool-call", id: "tooluse_1", name: "get_weather", arguments: '{"city":"Zürich"}', input: { city: "Zürich" } },
      { type: "finish", reason: "tool-calls" },
      { type: "usage", usage: { promptTokens: 40, completionTokens: 12, totalTokens: 52 } },
    ]);
    expect(server.last().json.toolConfig).toEqual({
      tools: [{ toolSpec: { name: "get_weather", description: "The weather in a city", inputSchema: { json: WEATHER.parameters } } }],
      toolChoice: { any: {} },
    });
  });

  it("sends a tool result round-trip as toolUse and toolResult blocks, parallel results in one user turn", async () => {
    frames = [frame("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "21 °C, and 19 °C." } }), frame("messageStop", { stopReason: "end_turn" }), USAGE];
    const turn = await completeTurn(
      chat(),
      [
        { role: "user", content: "Weather in Zürich and Bern?" },
        {
          role: "assistant",
          content: "Looking.",
          toolCalls: [
            { id: "t1", name: "get_weather", arguments: '{"city":"Zürich"}' },
            { id: "t2", name: "get_weather", arguments: '{"city":"Bern"}' },
          ],
        },
        { role: "tool", toolCallId: "t1", toolName: "get_weather", content: "21 °C" },
        { role: "tool", toolCallId: "t2", toolName: "get_weather", content: "no station", isError: true },
      ],
      { tools: [WEATHER] },
    );
    expect(turn).toMatchObject({ text: "21 °C, and 19 °C.", toolCalls: [], finishReason: "stop" });
    expect(server.last().json.messages).toEqual([
      { role: "user", content: [{ text: "Weather in Zürich and Bern?" }] },
      {
        role: "assistant",
        content: [{ text: "Looking." }, { toolUse: { toolUseId: "t1", name: "get_weather", input: { city: "Zürich" } } }, { toolUse: { toolUseId: "t2", name: "get_weather", input: { city: "Bern" } } }],
      },
      {
        role: "user",
        content: [{ toolResult: { toolUseId: "t1", content: [{ text: "21 °C" }] } }, { toolResult: { toolUseId: "t2", content: [{ text: "no station" }], status: "error" } }],
      },
    ]);
    // No choice asked for, none sent: the model decides.
    expect(server.last().json.toolConfig).toEqual({ tools: [expect.objectContaining({ toolSpec: expect.objectContaining({ name: "get_weather" }) })] });
  });

  it("asks for a JSON-schema answer as a forced tool and passes its streamed input on as the answer's text", async () => {
    const schema = { type: "object", properties: { celsius: { type: "number" } }, required: ["celsius"] };
    frames = [
      frame("contentBlockStart", { contentBlockIndex: 0, start: { toolUse: { toolUseId: "tooluse_9", name: "weather" } } }),
      frame("contentBlockDelta", { contentBlockIndex: 0, delta: { toolUse: { input: '{"cels' } } }),
      frame("contentBlockDelta", { contentBlockIndex: 0, delta: { toolUse: { input: 'ius":21}' } } }),
      frame("contentBlockStop", { contentBlockIndex: 0 }),
      frame("messageStop", { stopReason: "tool_use" }),
      USAGE,
    ];
    await expect(completeJson(chat(), [{ role: "user", content: "Weather?" }], { schema, name: "weather" })).resolves.toEqual({ celsius: 21 });
    expect(server.last().json.toolConfig).toEqual({
      tools: [{ toolSpec: { name: "weather", description: "Give the answer as this tool's input.", inputSchema: { json: schema } } }],
      toolChoice: { tool: { name: "weather" } },
    });
    const events = await collect(chat().stream([{ role: "user", content: "Weather?" }], { responseFormat: { type: "json", schema, name: "weather" } }));
    expect(events.filter((e) => e.type === "finish")).toEqual([{ type: "finish", reason: "stop" }]);
  });
});
