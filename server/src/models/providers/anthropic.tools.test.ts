import { completeJson, completeTurn } from "../chat-tools";
import type { ToolDefinition } from "../model-types";
import { collect, sseBody, startVendorServer, writeSlowly, type VendorServer } from "../../testing/vendor-servers";
import { anthropic } from "./anthropic";

const MODEL = "claude-sonnet-4-5-20250929";
const WEATHER: ToolDefinition = { name: "get_weather", description: "The weather in a city", parameters: { type: "object", properties: { city: { type: "string" } } } };

let server: VendorServer;
let body = "";

beforeAll(async () => {
  // The next answer, cut into 13-byte writes so that events split mid-JSON.
  server = await startVendorServer((_, response) => writeSlowly(response, 200, { "content-type": "text/event-stream" }, body, { pieceSize: 13 }));
});
afterAll(() => server.close());

const chat = () => anthropic.create("chat", { modelName: MODEL, credentials: { apiKey: "sk-ant-test", baseUrl: server.url } });

type Block = { start: Record<string, unknown>; deltas: Record<string, unknown>[] };

/** A Messages stream of these content blocks, ending with the stop reason. */
function messageStream(blocks: Block[], stopReason: string): string {
  return sseBody([
    { event: "message_start", data: { type: "message_start", message: { id: "msg_1", role: "assistant", model: MODEL, content: [], usage: { input_tokens: 50, output_tokens: 1 } } } },
    ...blocks.flatMap((block, index) => [
      { event: "content_block_start", data: { type: "content_block_start", index, content_block: block.start } },
      ...block.deltas.map((delta) => ({ event: "content_block_delta", data: { type: "content_block_delta", index, delta } })),
      { event: "content_block_stop", data: { type: "content_block_stop", index } },
    ]),
    { event: "message_delta", data: { type: "message_delta", delta: { stop_reason: stopReason }, usage: { output_tokens: 20 } } },
    { event: "message_stop", data: { type: "message_stop" } },
  ]);
}

const json = (partial_json: string) => ({ type: "input_json_delta", partial_json });

describe("Anthropic tool use", () => {
  it("reassembles tool_use blocks from input_json_delta fragments, after the text, and sends tools and tool_choice in Anthropic's names", async () => {
    body = messageStream(
      [
        { start: { type: "text", text: "" }, deltas: [{ type: "text_delta", text: "Checking both." }] },
        { start: { type: "tool_use", id: "toolu_1", name: "get_weather", input: {} }, deltas: [json(""), json('{"city": "Zü'), json('rich"}')] },
        { start: { type: "tool_use", id: "toolu_2", name: "get_weather", input: {} }, deltas: [json('{"city": "Bern"}')] },
      ],
      "tool_use",
    );
    const events = await collect(chat().stream([{ role: "user", content: "Weather in Zürich and Bern?" }], { tools: [WEATHER], toolChoice: "required" }));
    expect(events).toEqual([
      { type: "delta", text: "Checking both." },
      { type: "tool-call-delta", id: "toolu_1", name: "get_weather", argumentsDelta: '{"city": "Zü' },
      { type: "tool-call-delta", id: "toolu_1", name: "get_weather", argumentsDelta: 'rich"}' },
      { type: "tool-call", id: "toolu_1", name: "get_weather", arguments: '{"city": "Zürich"}', input: { city: "Zürich" } },
      { type: "tool-call-delta", id: "toolu_2", name: "get_weather", argumentsDelta: '{"city": "Bern"}' },
      { type: "tool-call", id: "toolu_2", name: "get_weather", arguments: '{"city": "Bern"}', input: { city: "Bern" } },
      { type: "usage", usage: { promptTokens: 50, completionTokens: 20, totalTokens: 70 } },
      { type: "finish", reason: "tool-calls" },
    ]);
    expect(server.last().json).toEqual(
      expect.objectContaining({
        tools: [{ name: "get_weather", description: "The weather in a city", input_schema: WEATHER.parameters }],
        tool_choice: { type: "any" },
      }),
    );
  });

  it("sends a tool result round-trip as tool_use blocks and one user turn of tool_result blocks", async () => {
    body = messageStream([{ start: { type: "text", text: "" }, deltas: [{ type: "text_delta", text: "21 °C in Zürich." }] }], "end_turn");
    const turn = await completeTurn(
      chat(),
      [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Zürich and Bern?" },
        {
          role: "assistant",
          content: "Checking both.",
          toolCalls: [
            { id: "toolu_1", name: "get_weather", arguments: '{"city":"Zürich"}' },
            { id: "toolu_2", name: "get_weather", arguments: '{"city":"Bern"}' },
          ],
        },
        { role: "tool", toolCallId: "toolu_1", toolName: "get_weather", content: "21 °C" },
        { role: "tool", toolCallId: "toolu_2", toolName: "get_weather", content: "no station", isError: true },
      ],
      { tools: [WEATHER], toolChoice: { tool: "get_weather" } },
    );
    expect(turn).toMatchObject({ text: "21 °C in Zürich.", toolCalls: [], finishReason: "stop" });
    const request = server.last().json;
    expect(request.system).toBe("Be brief.");
    expect(request.tool_choice).toEqual({ type: "tool", name: "get_weather" });
    expect(request.messages).toEqual([
      { role: "user", content: "Weather in Zürich and Bern?" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Checking both." },
          { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Zürich" } },
          { type: "tool_use", id: "toolu_2", name: "get_weather", input: { city: "Bern" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "21 °C" },
          { type: "tool_result", tool_use_id: "toolu_2", content: "no station", is_error: true },
        ],
      },
    ]);
  });

  it("asks for a JSON-schema answer as a forced tool and passes its streamed input on as the answer's text", async () => {
    const schema = { type: "object", properties: { celsius: { type: "number" } }, required: ["celsius"] };
    body = messageStream([{ start: { type: "tool_use", id: "toolu_9", name: "weather", input: {} }, deltas: [json('{"cel'), json('sius": 21}')] }], "tool_use");
    await expect(completeJson(chat(), [{ role: "user", content: "Weather?" }], { schema, name: "weather", description: "The weather now" })).resolves.toEqual({ celsius: 21 });
    expect(server.last().json).toEqual(
      expect.objectContaining({ tools: [{ name: "weather", description: "The weather now", input_schema: schema }], tool_choice: { type: "tool", name: "weather" } }),
    );
    const events = await collect(chat().stream([{ role: "user", content: "Weather?" }], { responseFormat: { type: "json", schema, name: "weather" } }));
    expect(events.filter((e) => e.type !== "usage")).toEqual([
      { type: "delta", text: '{"cel' },
      { type: "delta", text: 'sius": 21}' },
      { type: "finish", reason: "stop" },
    ]);
  });
});
