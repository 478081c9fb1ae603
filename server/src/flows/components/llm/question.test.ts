import { builtin } from "../../../models/builtin/builtin.provider";
import { expectTranslatedEverywhere } from "../../../models/testing/translated";
import { runComponent, testPorts } from "../../testing/run-component";
import { startScriptedChatServer, type ScriptedChatServer } from "../../testing/scripted-chat-server";
import { keywordExtractComponent } from "./keyword-extract";
import { rewriteQuestionComponent } from "./rewrite-question";

/** RewriteQuestion and KeywordExtract, with a model that writes (a local scripted server) and with the built-in one. */

let server: ScriptedChatServer;
beforeAll(async () => {
  server = await startScriptedChatServer(() => "");
});
afterAll(() => server.close());

const ports = () => testPorts({ chat: server.model() });
const builtinPorts = () => testPorts({ chat: builtin.create("chat", { modelName: "cairn-extractive", credentials: {} }) });

const CONVERSATION = [
  { role: "user" as const, content: "Tell me about the Eiffel Tower." },
  { role: "assistant" as const, content: "It is a tower in Paris." },
  { role: "user" as const, content: "Who designed the Statue of Liberty?" },
  { role: "assistant" as const, content: "Not found." },
  { role: "user" as const, content: "When was it built?" },
];

describe("RewriteQuestion", () => {
  test("rewrites the latest question from the last four messages, at temperature 0.9, and puts it in the question's place", async () => {
    server.script = () => "Output: When was the Statue of Liberty built?";
    const run = await runComponent(rewriteQuestionComponent, { history: CONVERSATION, ports: ports() });
    expect(run.output).toEqual({ content: "When was the Statue of Liberty built?" });
    expect(run.history.at(-1)).toEqual({ role: "user", content: "When was the Statue of Liberty built?" });
    const request = server.requests().at(-1)!;
    expect(request.body.temperature).toBe(0.9);
    const system = request.messages[0].content!;
    expect(system).toContain("ASSISTANT: It is a tower in Paris.\nUSER: Who designed the Statue of Liberty?\nASSISTANT: Not found.\nUSER: When was it built?");
    expect(system).not.toContain("Eiffel");
  });

  test("stops the run once it has rewritten `loop` times in the turn, with RAGFlow's translated message", async () => {
    const before = server.requests().length;
    await expect(runComponent(rewriteQuestionComponent, { params: { loop: 1 }, history: CONVERSATION, loopCount: 2, ports: ports() })).rejects.toMatchObject({
      kind: "BAD_REQUEST",
      messageKey: "flow.components.RewriteQuestion.errors.nothingRelevant",
      params: { loop: 1 },
    });
    expect(server.requests().length).toBe(before);
    expectTranslatedEverywhere("flow.components.RewriteQuestion.errors.nothingRelevant", { loop: 1 });
    server.script = () => "Rewritten.";
    await expect(runComponent(rewriteQuestionComponent, { params: { loop: 2 }, history: CONVERSATION, loopCount: 2, ports: ports() })).resolves.toMatchObject({ output: { content: "Rewritten." } });
  });

  test("with the built-in model (no key), completes a follow-up from the turn before and keeps its key terms", async () => {
    const run = await runComponent(rewriteQuestionComponent, { history: CONVERSATION, ports: builtinPorts() });
    expect(run.output.content).toMatch(/built/);
    expect(run.output.content).toMatch(/statue/i);
    expect(run.history.at(-1)!.content).toBe(run.output.content);
  });
});

describe("KeywordExtract", () => {
  test("asks for top_n keywords and gives them comma-separated, the answer's label taken off", async () => {
    server.script = () => "keyword: solar panels, efficiency, winter, extra";
    const { output } = await runComponent(keywordExtractComponent, { params: { top_n: 3 }, input: "How efficient are solar panels in winter?", ports: ports() });
    expect(output).toEqual({ content: "solar panels, efficiency, winter" });
    const [system, user] = server.requests().at(-1)!.messages;
    expect(system.content).toContain("give top 3 important keyword/phrase");
    expect(user).toEqual({ role: "user", content: "How efficient are solar panels in winter?" });
  });

  test("reads its input variables when it has some, and gives nothing for nothing without a model call", async () => {
    server.script = () => "tides";
    await runComponent(keywordExtractComponent, { params: { query: [{ type: "reference", component_id: "begin@topic" }] }, input: "ignored", inputs: [{ component_id: "begin@topic", content: "Ocean tides" }], ports: ports() });
    expect(server.requests().at(-1)!.messages[1].content).toBe("Ocean tides");
    const before = server.requests().length;
    expect((await runComponent(keywordExtractComponent, { input: " ", ports: ports() })).output).toEqual({ content: "" });
    expect(server.requests().length).toBe(before);
  });

  test("with the built-in model (no key), gives the text's first key terms", async () => {
    const { output } = await runComponent(keywordExtractComponent, { params: { top_n: 2 }, input: "How efficient are solar panels in winter?", ports: builtinPorts() });
    expect(output.content).toBe("efficient, solar");
  });
});
