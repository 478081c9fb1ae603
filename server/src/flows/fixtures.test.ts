import { withDefaults } from "../platform/param-spec";
import type { RetrievalResult } from "../retrieval/retrieval.service";
import { componentNamed } from "./components";
import { fakeHit } from "./components/llm/testing-hits";
import { importFlow } from "./dsl-format";
import type { FlowState } from "./run-types";
import { startOutsideWorld, type OutsideVendor, type OutsideWorld } from "./testing/outside-world";
import { RAGFLOW_MINIMAL_DSL, ragflowFixtureFiles, readRagflowFixture } from "./testing/ragflow-fixtures";
import { testPorts } from "./testing/run-component";
import { runTestTurn, type TurnRun } from "./testing/run-flow";
import { startScriptedChatServer, type ScriptedChatServer, type ScriptedRequest } from "./testing/scripted-chat-server";

/**
 * RAGFlow's own flows run here as they are: every template and DSL example of v0.14 imports unchanged and runs a
 * turn — a chat flow greets, then answers a message through the branch its model picks; a task flow runs on its
 * Begin inputs — and so does the v0.20 flow RAGFlow's agent API tests create (RAGFLOW_MINIMAL_DSL), which answers "hello".
 * The models they name (deepseek-chat) are the tenant's default model here: a scripted local server. Local servers
 * stand in for the search and data services.
 */

let model: ScriptedChatServer;
let world: OutsideWorld;

const ANSWER = "Here is what I found.";

/** How the scripted model answers, per test. */
interface ModelScript {
  /** A Categorize's choice. */
  category?: string;
  /** A Relevant's grade ("yes" unless told). */
  relevant?: string;
  /** What a Generate writes. */
  generate?: string;
}
let script: ModelScript = {};

function modelAnswer(request: ScriptedRequest): string {
  const system = request.messages[0]?.content ?? "";
  const last = request.messages.at(-1)?.content ?? "";
  if (last.includes("Category:")) return script.category ?? "";
  if (system.includes("question analyzer")) return "tides";
  if (system.startsWith("You are an expert at query expansion")) return "Why are there tides in the sea?";
  if (system.startsWith("You are a grader")) return script.relevant ?? "yes";
  return script.generate ?? ANSWER;
}

const retrieval: RetrievalResult = { total: 1, hits: [fakeHit("chunk-tides", "Tides are caused by the moon.", "tides.txt")], documents: [], timings: { keywordMs: 0, vectorMs: 0, rerankMs: 0, totalMs: 0 } };

beforeAll(async () => {
  [model, world] = await Promise.all([startScriptedChatServer(modelAnswer), startOutsideWorld()]);
});
afterAll(() => Promise.all([model?.close(), world?.close()]));

const ports = () => testPorts({ chat: model.model(), retrieve: async () => retrieval, baseUrls: world.baseUrls });

interface Scenario {
  /** A task flow runs at once on Begin's inputs; a chat flow greets, then is sent `message`. */
  inputs?: Record<string, unknown>;
  message?: string;
  model?: ModelScript;
  /** Components the turn runs through, outside services it reaches. */
  runs: string[];
  reaches?: OutsideVendor[];
  answer: string | RegExp;
  /** The turn fails, with this translated error, instead of answering. */
  fails?: RegExp;
}

const SCENARIOS: Record<string, Scenario> = {
  "templates-DB_Assistant.json": {
    message: "Which ships do we have?",
    model: { generate: "SELECT name FROM ships;" },
    runs: ["Retrieval:SillyPartsCheer", "Generate:CuteSidesBuy", "ExeSQL:CoolFactsChew"],
    answer: "",
    // The template's database is RAGFlow's placeholder "Your IP Port", which ExeSQL tells is no host (no DB is started here).
    fails: /Your IP Port is not a host name/,
  },
  "templates-HR_callout_zh.json": { message: "说说看", model: { category: "interested" }, runs: ["categorize:0", "Message:MajorPigsYell"], answer: /RAGFlow 是一款基于深度文档理解构建的开源 RAG/ },
  "templates-general_chat_bot.json": { message: "Will it rain tomorrow?", model: { category: "1. weather" }, runs: ["Categorize:KhakiTimesSmile", "QWeather:DeepKiwisTeach", "Generate:SpicyChickenKneel"], reaches: ["QWeather"], answer: ANSWER },
  "templates-interpreter.json": { inputs: { lang: "French", file: "The tide comes in twice a day." }, runs: ["Generate:RichWordsDeny", "Generate:SlimyFrogsArgue", "Generate:ChubbyCougarsRush"], answer: ANSWER },
  "templates-investment_advisor.json": { message: "How did defence stocks do?", runs: ["WenCai:TenParksOpen", "KeywordExtract:BreezyGoatsRead", "AkShare:CalmHotelsKnow", "Generate:RottenPianosUnite"], reaches: ["WenCai", "AkShare"], answer: ANSWER },
  "templates-medical_consultation.json": { message: "I can't sleep, what should I do?", runs: ["Retrieval:BeigeBagsDress", "PubMed:TwentyFansShake", "Generate:SolidCrewsStare"], reaches: ["PubMed"], answer: ANSWER },
  "templates-seo_blog.json": { inputs: { keywords: "tides", audience: "sailors" }, runs: ["Switch:LargeWaspsSlide", "Generate:FancyMomentsTalk", "Baidu:SharpSignsBeg", "Template:FunnyWebsPick"], reaches: ["Baidu"], answer: /^\s*## 胡凯人真好/ },
  "templates-websearch_assistant.json": { message: "Why are there tides?", runs: ["RewriteQuestion:OrangeBottlesSwim", "Retrieval:SilentCamelsStick", "Wikipedia:WittyRiceLearn", "Baidu:OliveAreasCall", "DuckDuckGo:SoftButtonsRefuse", "Generate:GreatCarrotsDecide"], reaches: ["Wikipedia", "Baidu", "DuckDuckGo"], answer: ANSWER },
  "dsl_examples/baidu_generate_and_switch.json": { message: "Is the moon the cause of tides?", model: { generate: "yes, it is" }, runs: ["baidu:0", "generate:0", "switch:0", "message:0"], reaches: ["Baidu"], answer: /^YES YES/ },
  "dsl_examples/categorize.json": { message: "How do I install it?", model: { category: "product_related" }, runs: ["categorize:0", "message:0"], answer: "Message 0!!!!!!!" },
  "dsl_examples/concentrator_message.json": { message: "Hello", model: { category: "others" }, runs: ["concentrator:1", "message:1_0", "message:1_1", "message:1_2"], answer: /Message 1_\d!!!!!!!/ },
  "dsl_examples/customer_service.json": { message: "It leaks, what to do?", model: { category: "product_related" }, runs: ["retrieval:0", "relevant:0", "generate:answer"], answer: ANSWER },
  // The example's database is RAGFlow's own ("mysql:3306" in its docker network): ExeSQL says it cannot reach it.
  "dsl_examples/exesql.json": { message: "SELECT 1;", runs: ["exesql:0"], answer: "", fails: /mysql:3306/ },
  "dsl_examples/headhunter_zh.json": { message: "说说看", model: { category: "interested" }, runs: ["categorize:0", "message:introduction"], answer: /RAGFlow/ },
  "dsl_examples/intergreper.json": { message: "您好！ => English", runs: ["generate:0"], answer: ANSWER },
  "dsl_examples/interpreter.json": { message: "您好！ => English", runs: ["generate:0"], answer: ANSWER },
  "dsl_examples/keyword_wikipedia_and_generate.json": { message: "Why are there tides?", runs: ["keyword:0", "wikipedia:0"], reaches: ["Wikipedia"], answer: ANSWER },
  "dsl_examples/retrieval_and_generate.json": { message: "Why are there tides?", runs: ["retrieval:0", "generate:0"], answer: ANSWER },
  "dsl_examples/retrieval_categorize_and_generate.json": { message: "Why are there tides?", model: { category: "product_related" }, runs: ["categorize:0", "retrieval:0", "generate:0"], answer: ANSWER },
  "dsl_examples/retrieval_relevant_and_generate.json": { message: "Why are there tides?", runs: ["retrieval:0", "relevant:0", "generate:0"], answer: ANSWER },
  "dsl_examples/retrieval_relevant_keyword_baidu_and_generate.json": { message: "Why are there tides?", model: { relevant: "no" }, runs: ["relevant:0", "keyword:0", "baidu:0", "generate:1"], reaches: ["Baidu"], answer: ANSWER },
  "dsl_examples/retrieval_relevant_rewrite_and_generate.json": { message: "Why are there tides?", runs: ["retrieval:0", "relevant:0", "generate:0"], answer: ANSWER },
};

/** The components a turn started, the one that failed included. */
const ran = (run: TurnRun) => run.events.flatMap((event) => (event.type === "node_started" ? [event.componentId] : []));
/** What Begin says first: its prologue, RAGFlow's default when the file gives none. */
const prologueOf = (params: Record<string, unknown>) => String(withDefaults(componentNamed("Begin")!.params, params).prologue);

test("every RAGFlow v0.14 file has a scenario here", () => {
  expect(Object.keys(SCENARIOS).sort()).toEqual(ragflowFixtureFiles().sort());
});

describe.each(ragflowFixtureFiles())("RAGFlow v0.14's %s", (file) => {
  test("imports unchanged and runs a turn", async () => {
    const scenario = SCENARIOS[file];
    world.forget();
    script = scenario.model ?? {};
    const { dsl } = importFlow(readRagflowFixture(file));
    let state: FlowState | null = null;
    if (!scenario.inputs) {
      const greeting = await runTestTurn(dsl, null, {}, { ports: ports() });
      expect({ status: greeting.status, error: greeting.error }).toEqual({ status: "waiting", error: undefined });
      expect(greeting.answer).toBe(prologueOf(dsl.components.begin.obj.params));
      state = greeting.state;
    }
    const turn = await runTestTurn(dsl, state, scenario.inputs ? { inputs: scenario.inputs } : { message: scenario.message }, { ports: ports() });
    expect(ran(turn)).toEqual(expect.arrayContaining(scenario.runs));
    expect((scenario.reaches ?? []).filter((vendor) => world.calls(vendor).length === 0)).toEqual([]);
    if (scenario.fails) {
      expect(turn.status).toBe("failed");
      expect(turn.error).toMatch(scenario.fails);
      return;
    }
    expect({ status: turn.status, error: turn.error }).toEqual({ status: expect.stringMatching(/waiting|finished/), error: undefined });
    if (typeof scenario.answer === "string") expect(turn.answer).toBe(scenario.answer);
    else expect(turn.answer).toMatch(scenario.answer);
  });
});



test("RAGFlow's v0.20 MINIMAL_DSL imports and answers \"hello\" with \"hello\"", async () => {
  const { dsl } = importFlow(RAGFLOW_MINIMAL_DSL);
  const session = await runTestTurn(dsl, null, {}, { ports: ports() });
  expect(session.error).toBeUndefined();
  const turn = await runTestTurn(dsl, session.state, { message: "hello" }, { ports: ports() });
  expect({ status: turn.status, error: turn.error, answer: turn.answer }).toEqual({ status: "finished", error: undefined, answer: "hello" });
});
