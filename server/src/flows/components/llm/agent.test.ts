import { builtin } from "../../../models/builtin/builtin.provider";
import { expectTranslatedEverywhere } from "../../../models/testing/translated";
import { NotFound } from "../../../platform/errors";
import { englishMessage } from "../../../platform/messages";
import type { RetrievalResult } from "../../../retrieval/retrieval.service";
import type { ComponentOutput } from "../../component";
import type { FlowDsl } from "../../dsl";
import { runComponent, testPorts } from "../../testing/run-component";
import { startScriptedChatServer, type ScriptedChatServer, type ScriptedRequest } from "../../testing/scripted-chat-server";
import { agentComponent } from "./agent";
import { fakeHit } from "./testing-hits";

/** The Agent against a local OpenAI-compatible server that answers with tool calls, then with text. */

let server: ScriptedChatServer;
beforeAll(async () => {
  server = await startScriptedChatServer(() => "");
});
afterAll(() => server.close());

const TIDES = fakeHit("c-tides", "Tides are caused by the gravitational pull of the moon on the oceans.", "tides.txt");
const found = (hits = [TIDES]): RetrievalResult => ({ total: hits.length, hits, documents: [], timings: { keywordMs: 0, vectorMs: 0, rerankMs: 0, totalMs: 0 } });
const toolResults = (request: ScriptedRequest) => request.messages.filter((m) => m.role === "tool");

describe("Agent", () => {
  test("calls a component of the flow and the knowledge bases as tools, gives the model their results, and answers with citations", async () => {
    server.script = (request) =>
      toolResults(request).length === 0
        ? { toolCalls: [{ name: "Wikipedia_ThinLamps", arguments: { input: "tides" } }, { name: "search_knowledge_bases", arguments: { query: "what causes tides" } }] }
        : "The moon's pull causes the tides (ID: 0).";
    const invoked: [string, string][] = [];
    const questions: string[] = [];
    const run = await runComponent(agentComponent, {
      params: { prompt: "Answer about the sea.", tools: ["Wikipedia:ThinLamps"], kb_ids: ["kb-1"], max_rounds: 3 },
      history: [{ role: "user", content: "Why are there tides?" }],
      speaking: true,
      invoke: async (id, input): Promise<ComponentOutput> => {
        invoked.push([id, input]);
        return { content: "Wikipedia: a tide is the rise and fall of sea levels." };
      },
      ports: testPorts({
        chat: server.model(),
        retrieve: async (request) => {
          questions.push(request.question);
          return found();
        },
      }),
    });
    expect(invoked).toEqual([["Wikipedia:ThinLamps", "tides"]]);
    expect(questions).toEqual(["what causes tides"]);

    const [first, second] = server.requests().slice(-2);
    expect(first.tools.map((t) => t.function.name)).toEqual(["Wikipedia_ThinLamps", "search_knowledge_bases"]);
    expect(first.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(second.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool"]);
    expect(second.messages[2].tool_calls?.map((c) => [c.id, c.function.name])).toEqual([
      ["call_0", "Wikipedia_ThinLamps"],
      ["call_1", "search_knowledge_bases"],
    ]);
    const [wikipedia, knowledge] = toolResults(second);
    expect(wikipedia).toMatchObject({ tool_call_id: "call_0", content: "Wikipedia: a tide is the rise and fall of sea levels." });
    expect(knowledge.content).toContain(`ID: 0\n├── Title: tides.txt\n└── Content:\n${TIDES.chunk.content}`);

    expect(run.output.content).toBe("The moon's pull causes the tides [ID:0].");
    expect(run.said).toEqual(["The moon's pull causes the tides [ID:0]."]);
    expect(run.output.reference?.chunks.map((c) => c.id)).toEqual(["c-tides"]);
    expect(run.output.values?.tool_calls).toEqual([
      { tool: "Wikipedia_ThinLamps", input: { input: "tides" }, error: false },
      { tool: "search_knowledge_bases", input: { query: "what causes tides" }, error: false },
    ]);
    expect(run.tokens).toBe(2 * 47);
  });

  test("a tool that fails goes back to the model as the tool's error, translated, and the model goes on", async () => {
    server.script = (request) => (toolResults(request).length === 0 ? { toolCalls: [{ name: "search_knowledge_bases", arguments: { query: "tides" } }] } : "I could not search.");
    const run = await runComponent(agentComponent, {
      params: { kb_ids: ["kb-1"] },
      history: [{ role: "user", content: "Tides?" }],
      ports: testPorts({
        chat: server.model(),
        retrieve: async () => {
          throw NotFound("errors.notFound");
        },
      }),
    });
    expect(run.output.content).toBe("I could not search.");
    expect(run.output.values?.tool_calls).toEqual([{ tool: "search_knowledge_bases", input: { query: "tides" }, error: true }]);
    expect(toolResults(server.requests().at(-1)!)[0].content).toBe(englishMessage("errors.notFound"));
  });

  test("after max_rounds of tool calls the model must answer without tools", async () => {
    const before = server.requests().length;
    server.script = (request) => (request.body.tool_choice === "none" ? "Done with what I have." : { toolCalls: [{ name: "Search_a", arguments: { input: "more" } }] });
    let calls = 0;
    const run = await runComponent(agentComponent, {
      params: { tools: ["Search:a"], max_rounds: 2 },
      input: "Find everything.",
      question: "",
      invoke: async () => ({ content: `result ${++calls}` }),
      ports: testPorts({ chat: server.model() }),
    });
    expect(run.output.content).toBe("Done with what I have.");
    expect(calls).toBe(2);
    const requests = server.requests().slice(before);
    expect(requests.map((r) => r.body.tool_choice)).toEqual(["auto", "auto", "none"]);
    // A task flow: the text it reads is the request.
    expect(requests[0].messages.at(-1)).toEqual({ role: "user", content: "Find everything." });
  });

  test("its tools must be other components of the flow", () => {
    const flow: FlowDsl = { components: { "Search:a": { obj: { component_name: "DuckDuckGo", params: {} }, upstream: [], downstream: [] } } };
    const issues = agentComponent.checkInFlow!({ tools: ["Search:a", "Agent:me", "Gone:x"] }, flow, "Agent:me");
    expect(issues.map((i) => [i.path, i.messageKey, i.params])).toEqual([
      ["tools.1", "flow.components.Agent.errors.selfTool", undefined],
      ["tools.2", "flow.components.Agent.errors.unknownComponent", { component: "Gone:x" }],
    ]);
  });

  test("refuses, before anything runs, a model that cannot call tools such as the built-in one", async () => {
    let invoked = false;
    const refused = runComponent(agentComponent, {
      params: { tools: ["Search:a"] },
      history: [{ role: "user", content: "Hi" }],
      invoke: async () => {
        invoked = true;
        return { content: "" };
      },
      ports: testPorts({ chat: builtin.create("chat", { modelName: "cairn-extractive", credentials: {} }) }),
    });
    await expect(refused).rejects.toMatchObject({ kind: "BAD_REQUEST", messageKey: "flow.components.Agent.errors.toolsUnsupported" });
    expect(invoked).toBe(false);
    expectTranslatedEverywhere("flow.components.Agent.errors.toolsUnsupported", {});
  });
});
