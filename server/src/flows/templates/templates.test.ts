import pg from "pg";
import { builtin } from "../../models/builtin/builtin.provider";
import type { ChatModel } from "../../models/model-types";
import type { RetrievalResult } from "../../retrieval/retrieval.service";
import { startPostgres, type TestPostgres } from "../../testing/postgres";
import { fakeHit } from "../components/llm/testing-hits";
import type { FlowDsl } from "../dsl";
import { exportFlow, importFlow } from "../dsl-format";
import { validateFlow } from "../engine";
import type { FlowState } from "../run-types";
import { startOutsideWorld, type OutsideVendor, type OutsideWorld } from "../testing/outside-world";
import { testPorts } from "../testing/run-component";
import { runTestTurn, type TurnRun } from "../testing/run-flow";
import { startScriptedChatServer, type ScriptedChatServer, type ScriptedRequest } from "../testing/scripted-chat-server";
import { FLOW_TEMPLATES, type FlowTemplate } from "./index";

/**
 * Every template imports as shipped, validates once configured, and runs a conversation turn once its user has done what its description
 * asks (chosen knowledge bases, given a key, a database): a chat template greets, then answers a question through
 * the branch its router picks; a task template runs on Begin's inputs. Local servers stand in for the model (a
 * scripted OpenAI-compatible one), for every outside service, and for the database (PGlite over the wire).
 */

let model: ScriptedChatServer;
let world: OutsideWorld;
let database: TestPostgres | undefined;
/** What the scripted model answers a Categorize, and the SQL it writes, in the current test. */
let category = "";
let writtenSql = "";

const ANSWER = "Here is what I found.";
const SQL = "SELECT name, tonnage FROM ships ORDER BY name;";
/** What the model writes first for the DB Assistant: a column the table does not have, which the database reports. */
const WRONG_SQL = "SELECT name, tons FROM ships;";

/** The scripted model answers each component's request as a capable model would, recognisably. */
function modelAnswer(request: ScriptedRequest): string {
  const system = request.messages[0]?.content ?? "";
  const last = request.messages.at(-1)?.content ?? "";
  if (last.includes("Category:")) return category;
  if (system.includes("question analyzer")) return "tides, moon";
  if (system.startsWith("You are an expert at query expansion")) return "Why are there tides in the sea?";
  if (system.startsWith("You are a grader")) return "yes";
  if (system.includes("You repair SQL")) return SQL;
  if (system.includes("Answer with SQL code only")) return writtenSql;
  if (system.includes("support ticket")) return "Summary: Export fails\nDetails: The export button does nothing.\nSeverity: normal";
  return ANSWER;
}

const TIDES = fakeHit("chunk-tides", "Tides are caused by the gravitational pull of the moon on the oceans.", "tides.txt");
const retrieval: RetrievalResult = { total: 1, hits: [TIDES], documents: [], timings: { keywordMs: 0, vectorMs: 0, rerankMs: 0, totalMs: 0 } };

beforeAll(async () => {
  [model, world] = await Promise.all([startScriptedChatServer(modelAnswer), startOutsideWorld()]);
});
afterAll(() => Promise.all([model?.close(), world?.close(), database?.stop()]));

/** The database the DB Assistant asks (started by its test only: PGlite takes seconds to start). */
async function startShipsDatabase(): Promise<void> {
  database = await startPostgres();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query("CREATE TABLE ships (name text, tonnage integer); INSERT INTO ships VALUES ('Endeavour', 368), ('Beagle', 235);");
  await client.end();
}

const ports = (chat: ChatModel = model.model()) => testPorts({ chat, retrieve: async () => retrieval, baseUrls: world.baseUrls });

/** The template as its user configures it after creating a flow from it: what its description says it needs. */
function configured(template: FlowTemplate): FlowDsl {
  const dsl = structuredClone(template.dsl);
  const { hostname, port, username, pathname } = new URL(database?.url ?? "postgres://none@localhost:1/none");
  for (const component of Object.values(dsl.components)) {
    const { component_name: name, params } = component.obj;
    if (name === "ExeSQL" && !database) continue;
    if (name === "Retrieval") params.kb_ids = ["kb-test"];
    if (name === "QWeather") params.web_apikey = "test-key";
    if (name === "ExeSQL") Object.assign(params, { db_type: "postgresql", host: hostname, port: Number(port), username, password: "", database: pathname.slice(1) });
  }
  return dsl;
}

interface Scenario {
  /** A task template runs at once on Begin's inputs; a chat template greets, then is asked `message`. */
  inputs?: Record<string, unknown>;
  message?: string;
  /** What the model answers the turn's Categorize, and the SQL it writes (`SQL` unless told). */
  category?: string;
  writesSql?: string;
  /** Components the turn runs through (the branch taken), and the outside services it reaches. */
  runs: string[];
  reaches?: OutsideVendor[];
  /** What the user is told. */
  answer: string | RegExp;
  /** Outside services to start first. */
  prepare?: () => Promise<void>;
  /** What else the turn must have done. */
  check?: (turn: TurnRun) => void;
}

const SCENARIOS: Record<string, Scenario> = {
  "knowledge-base-qa": { message: "Why are there tides?", runs: ["Retrieval:Knowledge", "Generate:Answer"], answer: ANSWER },
  "support-triage": { message: "The export button does nothing.", category: "problem", runs: ["Generate:Ticket", "Switch:Severity", "Template:Logged"], answer: /I've logged it[\s\S]*Severity: normal/ },
  "research-digest": { inputs: { topic: "tides" }, runs: ["ArXiv:Preprints", "PubMed:Articles", "Generate:Digest"], reaches: ["ArXiv", "PubMed"], answer: ANSWER },
  "meeting-minutes": { inputs: { meeting: "of 26 November", notes: "Ana will send the budget by Friday. We chose the blue logo." }, runs: ["Generate:Summary", "Generate:Actions", "Template:Minutes"], answer: `# Minutes of 26 November\n\n## Summary\n${ANSWER}\n\n## Action items\n${ANSWER}` },
  "customer-service": { message: "How do I mount it on the wall?", category: "product_related", runs: ["RewriteQuestion:Clarify", "Retrieval:Manual", "Relevant:Answerable", "Generate:Answer"], answer: ANSWER },
  "web-search-assistant": {
    message: "Why are there tides?",
    runs: ["RewriteQuestion:Refine", "KeywordExtract:Keywords", "Retrieval:Knowledge", "Wikipedia:Encyclopedia", "DuckDuckGo:Web", "Generate:Answer"],
    reaches: ["Wikipedia", "DuckDuckGo"],
    answer: ANSWER,
    // The web is searched for the keywords, the knowledge base for the whole question.
    check: () => {
      expect(world.calls("Wikipedia")[0].query.get("gsrsearch")).toBe("tides, moon");
      expect(new URLSearchParams(world.calls("DuckDuckGo")[0].body).get("q")).toBe("tides, moon");
    },
  },
  "general-chatbot": { message: "Will it rain in Lisbon this week?", category: "weather", runs: ["Generate:FindCity", "QWeather:Weather", "Generate:WeatherReply"], reaches: ["QWeather"], answer: ANSWER },
  "recruiting-assistant": { message: "Tell me more", category: "interested", runs: ["Message:Introduction"], answer: /open-source platform/ },
  interpreter: { inputs: { lang: "French", file: "The tide comes in twice a day." }, runs: ["Generate:Translate", "Generate:Reflect", "Generate:Improve"], answer: ANSWER },
  "text-to-sql": { message: "Which ships do we have?", runs: ["Retrieval:DDL", "Retrieval:Examples", "Retrieval:Description", "Generate:WriteSQL"], answer: SQL },
  "db-assistant": {
    message: "Which ships do we have?",
    writesSql: WRONG_SQL,
    prepare: startShipsDatabase,
    runs: ["Generate:WriteSQL", "ExeSQL:Run", "Switch:Failed", "Generate:RepairSQL", "Generate:Explain"],
    answer: ANSWER,
    check: (turn) => {
      // The database's error went to the repair, and the repaired SQL's rows to the explanation.
      expect(ran(turn).filter((id) => id === "ExeSQL:Run")).toHaveLength(2);
      expect(turn.state.outputs["ExeSQL:Run"].content).toMatch(/Endeavour[\s\S]*368/);
      const prompts = model.requests().map((request) => request.messages[0]?.content ?? "");
      expect(prompts.find((prompt) => prompt.includes("You repair SQL"))).toMatch(/tons[\s\S]*does not exist|does not exist[\s\S]*tons/);
      expect(prompts.at(-1)).toContain("Endeavour");
    },
  },
  "medical-consultation": { message: "I can't sleep, what should I do?", runs: ["Retrieval:MedicalQA", "Generate:EnglishQuery", "PubMed:Literature", "Generate:Advice"], reaches: ["PubMed"], answer: ANSWER },
  "investment-advisor": { message: "How did defence stocks do yesterday?", runs: ["WenCai:Market", "KeywordExtract:Stocks", "AkShare:News", "Generate:Advice"], reaches: ["WenCai", "AkShare"], answer: ANSWER },
  "seo-blog-writer": { inputs: { keywords: "tides", audience: "sailors" }, runs: ["Switch:HasTitle", "DuckDuckGo:KeywordSearch", "Generate:Title", "Generate:SearchPhrase", "DuckDuckGo:Research", "Generate:Outline", "Generate:Body", "Template:Article"], reaches: ["DuckDuckGo"], answer: `## ${ANSWER}\n\n${ANSWER}\n\n${ANSWER}` },
};

const ran = (run: TurnRun) => run.state.path.at(-1) ?? [];

test("every template has a scenario here", () => {
  expect(Object.keys(SCENARIOS).sort()).toEqual(FLOW_TEMPLATES.map((t) => t.id).sort());
});

describe.each(FLOW_TEMPLATES.map((t) => [t.id, t] as const))("the %s template", (id, template) => {
  const scenario = SCENARIOS[id];

  test("is valid once configured; as shipped, it lacks only the knowledge bases its user chooses", () => {
    expect(validateFlow(configured(template))).toEqual([]);
    const retrievals = Object.keys(template.dsl.components).filter((componentId) => template.dsl.components[componentId].obj.component_name === "Retrieval");
    expect(validateFlow(template.dsl)).toEqual(retrievals.map((componentId) => ({ componentId, field: "kb_ids", messageKey: "flow.components.Retrieval.errors.noKnowledgeBase" })));
  });

  test("exports as a RAGFlow file that imports again unchanged, with nothing to note", () => {
    const again = importFlow(JSON.parse(JSON.stringify(exportFlow({ dsl: template.dsl, title: id }))));
    expect({ dsl: again.dsl, notes: again.notes }).toEqual({ dsl: template.dsl, notes: [] });
  });

  test(scenario.inputs ? "runs on Begin's inputs and gives its result" : "greets, then answers a question through its branch", async () => {
    world.forget();
    category = scenario.category ?? "";
    writtenSql = scenario.writesSql ?? SQL;
    await scenario.prepare?.();
    const flow = configured(template);
    let state: FlowState | null = null;
    if (!scenario.inputs) {
      const greeting = await runTestTurn(flow, null, {}, { ports: ports() });
      expect({ status: greeting.status, error: greeting.error }).toEqual({ status: "waiting", error: undefined });
      expect(greeting.answer).toBe(flow.components.begin.obj.params.prologue);
      state = greeting.state;
    }
    const turn = await runTestTurn(flow, state, scenario.inputs ? { inputs: scenario.inputs } : { message: scenario.message }, { ports: ports() });
    expect({ error: turn.error, status: turn.status }).toEqual({ error: undefined, status: scenario.inputs ? expect.stringMatching(/^(waiting|finished)$/) : "waiting" });
    expect(ran(turn)).toEqual(expect.arrayContaining(scenario.runs));
    if (typeof scenario.answer === "string") expect(turn.answer).toBe(scenario.answer);
    else expect(turn.answer).toMatch(scenario.answer);
    expect((scenario.reaches ?? []).filter((vendor) => world.calls(vendor).length === 0)).toEqual([]);
    scenario.check?.(turn);
  });
});

describe("with the built-in models only", () => {
  const builtinChat = () => builtin.create("chat", { modelName: "cairn-extractive", credentials: {} });
  const template = (id: string) => FLOW_TEMPLATES.find((t) => t.id === id)!;

  test("knowledge-base Q&A answers from the knowledge base, with a citation", async () => {
    const flow = configured(template("knowledge-base-qa"));
    const greeting = await runTestTurn(flow, null, {}, { ports: ports(builtinChat()) });
    const turn = await runTestTurn(flow, greeting.state, { message: "What causes tides?" }, { ports: ports(builtinChat()) });
    expect({ status: turn.status, error: turn.error }).toEqual({ status: "waiting", error: undefined });
    expect(turn.answer).toContain("gravitational pull of the moon");
    expect(turn.reference?.chunks.map((chunk) => chunk.id)).toEqual(["chunk-tides"]);
  });

  test.each(["support-triage", "research-digest", "meeting-minutes"])("%s runs a turn", async (id) => {
    const flow = configured(template(id));
    const scenario = SCENARIOS[id];
    const first = await runTestTurn(flow, null, scenario.inputs ? { inputs: scenario.inputs } : {}, { ports: ports(builtinChat()) });
    const turn = scenario.inputs ? first : await runTestTurn(flow, first.state, { message: scenario.message }, { ports: ports(builtinChat()) });
    expect({ status: turn.status, error: turn.error }).toEqual({ status: expect.stringMatching(/waiting|finished/), error: undefined });
    expect(turn.answer.trim()).not.toBe("");
  });
});
