import type { KnowledgeBase } from "../../../knowledge/knowledge-base.entity";
import type { SignedIn } from "../../../policies/principal";
import type { RetrievalRequest } from "../../../retrieval/retrieval.service";
import { signUpAndIn, startTestServer, type TestServer } from "../../../testing/app";
import { parsedKnowledgeBase } from "../../../testing/knowledge-bases";
import type { FlowPorts } from "../../ports";
import { runComponent, testPorts } from "../../testing/run-component";
import { startScriptedChatServer, type ScriptedChatServer } from "../../testing/scripted-chat-server";
import { agentComponent } from "./agent";
import { generateComponent } from "./generate";
import { keywordExtractComponent } from "./keyword-extract";
import { flowPorts } from "../../run-ports";
import { sketchFlow } from "../../testing/run-flow";
import { knowledgeBasesNamedIn, retrievalComponent } from "./retrieval";

/**
 * Retrieval, and the Generate and Agent that read it, over a real knowledge base parsed by the server: the one
 * retrieval service, the built-in embedding and chat models, the runner's permissions.
 */

let server: TestServer;
let chat: ScriptedChatServer;
let owner: SignedIn;
let stranger: SignedIn;
let kb: KnowledgeBase;
let strangersKb: KnowledgeBase;

const FILES = {
  "tides.txt": "Tides are caused by the gravitational pull of the moon on the oceans. Spring tides happen at new and full moon.",
  "bread.txt": "Sourdough bread rises slowly because wild yeast ferments the dough overnight.",
  "turbines.txt": "Wind turbines convert the kinetic energy of wind into electricity.",
};
/** A knowledge base id of another server, as RAGFlow's own templates name them. */
const FOREIGN_KB = "869a236818b811ef91dffa163e197198";

async function principal(token: string): Promise<SignedIn> {
  const p = await server.services.principalFor(`Bearer ${token}`);
  if (p.kind === "anonymous" || p.kind === "share" || p.kind === "flowShare") throw new Error("not signed in");
  return p;
}

beforeAll(async () => {
  server = await startTestServer();
  chat = await startScriptedChatServer(() => "");
  owner = await principal((await signUpAndIn(server)).token);
  stranger = await principal((await signUpAndIn(server)).token);
  kb = (await parsedKnowledgeBase(server, owner, FILES, { name: "Sea and bread" })).knowledgeBase;
  strangersKb = (await parsedKnowledgeBase(server, stranger, { "secret.txt": "The tides of the secret bay are private." }, { name: "Private" })).knowledgeBase;
}, 180_000);
afterAll(async () => {
  await chat?.close();
  await server?.close();
});

/** The owner's ports, as the run service gives them: the one retrieval service for the owner, the owner's default chat model. */
function ownerPorts(requests: RetrievalRequest[] = []): FlowPorts {
  return testPorts({
    tenantId: owner.tenantId,
    principal: owner,
    retrieve: (request) => {
      requests.push(request);
      return server.services.retrieval.retrieve(owner, request);
    },
    chatModel: (llmId) => server.services.models.client(owner.tenantId, "chat", llmId),
  });
}

describe("Retrieval", () => {
  test("finds the chunks about its input through the one retrieval service, weighing vectors by 1 − keywords_similarity_weight", async () => {
    const requests: RetrievalRequest[] = [];
    const { output } = await runComponent(retrievalComponent, {
      params: { kb_ids: [kb.id], keywords_similarity_weight: 0.7, top_n: 2 },
      input: "What causes the tides?",
      ports: ownerPorts(requests),
    });
    expect(requests).toEqual([expect.objectContaining({ question: "What causes the tides?", knowledgeBaseIds: [kb.id], vectorSimilarityWeight: expect.closeTo(0.3, 6), similarityThreshold: 0.2, topK: 1024, pageSize: 2 })]);
    expect(output.items![0]).toMatchObject({ title: "tides.txt", hit: { documentName: "tides.txt" } });
    expect(output.items!.length).toBeLessThanOrEqual(2);
    for (const { hit } of output.items!) expect(hit!.similarity).toBeCloseTo(0.7 * hit!.termSimilarity + 0.3 * hit!.vectorSimilarity, 6);
    expect(output.content).toContain("gravitational pull of the moon");
    expect(output.notes).toEqual([]);
  });

  test("reads its input variables when it has some", async () => {
    const { output } = await runComponent(retrievalComponent, {
      params: { kb_ids: [kb.id] },
      input: "What causes the tides?",
      inputs: [{ component_id: "begin@topic", content: "sourdough yeast" }],
      ports: ownerPorts(),
    });
    expect(output.items![0].title).toBe("bread.txt");
  });

  test("leaves out knowledge bases that do not exist or that the runner may not read, with a note, and searches the rest", async () => {
    const { output } = await runComponent(retrievalComponent, { params: { kb_ids: [FOREIGN_KB, strangersKb.id, kb.id] }, input: "tides of the bay", ports: ownerPorts() });
    expect(output.items!.map((i) => i.title)).not.toContain("secret.txt");
    expect(output.items![0].title).toBe("tides.txt");
    expect(output.notes).toEqual([`Left out knowledge bases that do not exist or that you may not read: ${FOREIGN_KB}, ${strangersKb.id}`]);

    const none = await runComponent(retrievalComponent, { params: { kb_ids: [strangersKb.id], empty_response: "Nothing here." }, input: "tides of the bay", ports: ownerPorts() });
    expect(none.output).toMatchObject({ content: "", items: [], values: { empty_response: "Nothing here." } });
    expect(none.output.notes).toEqual([`Left out knowledge bases that do not exist or that you may not read: ${strangersKb.id}`, "Nothing was found in the knowledge bases."]);
  });

  test("searches the knowledge bases its run looked up while it was claimed, looking none up again, and leaves out the same ones", async () => {
    const dsl = sketchFlow({
      begin: { name: "Begin", down: ["Retrieval:0"] },
      "Retrieval:0": { name: "Retrieval", params: { kb_ids: [FOREIGN_KB, strangersKb.id, kb.id], top_n: 2 }, down: ["Agent:0"] },
      "Agent:0": { name: "Agent", params: { kb_ids: [kb.id, "  "] } },
    });
    expect(knowledgeBasesNamedIn(dsl)).toEqual([FOREIGN_KB, strangersKb.id, kb.id]);
    const lookedUp = server.services.retrieval.lookUp(owner, knowledgeBasesNamedIn(dsl));
    const lookups = jest.spyOn(server.services.knowledgeBases, "accessible");
    try {
      const params = dsl.components["Retrieval:0"].obj.params;
      const { output } = await runComponent(retrievalComponent, { params, input: "tides of the bay", ports: flowPorts(server.services, owner, [], lookedUp) });
      expect(output.items![0].title).toBe("tides.txt");
      expect(output.notes).toEqual([`Left out knowledge bases that do not exist or that you may not read: ${FOREIGN_KB}, ${strangersKb.id}`]);
      expect(lookups).not.toHaveBeenCalled();
    } finally {
      lookups.mockRestore();
    }
  });

  test("finding nothing gives an empty output that passes the empty response on; no knowledge base chosen searches nothing", async () => {
    const { output } = await runComponent(retrievalComponent, {
      params: { kb_ids: [kb.id], similarity_threshold: 0.99, empty_response: "The answer you want was not found in the knowledge base!" },
      input: "quantum chromodynamics lattice",
      ports: ownerPorts(),
    });
    expect(output).toEqual({ content: "", items: [], values: { empty_response: "The answer you want was not found in the knowledge base!" }, notes: ["Nothing was found in the knowledge bases."] });

    const requests: RetrievalRequest[] = [];
    const unset = await runComponent(retrievalComponent, { params: { kb_ids: [] }, input: "tides", ports: ownerPorts(requests) });
    expect(unset.output).toEqual({ content: "", items: [], values: {}, notes: ["No knowledge base is chosen: nothing was searched."] });
    expect(requests).toEqual([]);
  });

  test("a rerank model the team does not have (a RAGFlow template's) is left out with a note", async () => {
    const { output } = await runComponent(retrievalComponent, { params: { kb_ids: [kb.id], rerank_id: "BAAI/bge-reranker-v2-m3" }, input: "What causes the tides?", ports: ownerPorts() });
    expect(output.items![0].title).toBe("tides.txt");
    expect(output.notes).toEqual(["The rerank model BAAI/bge-reranker-v2-m3 is not available: the chunks were ranked without it."]);
  });
});

describe("Begin → Retrieval → Generate with the built-in models only", () => {
  test("answers the question by quoting the knowledge base, with citations and a reference", async () => {
    const question = "What causes the tides?";
    const retrieval = await runComponent(retrievalComponent, { params: { kb_ids: [kb.id] }, input: question, ports: ownerPorts() });
    const generate = await runComponent(generateComponent, {
      params: {
        prompt: "You are an intelligent assistant. Please summarize the content of the knowledge base to answer the question.\n      Here is the knowledge base:\n      {input}\n      The above is the knowledge base.",
      },
      input: retrieval.output.content,
      history: [{ role: "user", content: question }],
      retrievals: [retrieval.output],
      speaking: true,
      ports: ownerPorts(),
    });
    const tides = retrieval.output.items!.findIndex((item) => item.title === "tides.txt");
    expect(generate.output.content).toContain("gravitational pull of the moon");
    expect(generate.output.content).toContain(`[ID:${tides}]`);
    expect(generate.said.join("")).toContain("gravitational pull of the moon");
    expect(generate.output.reference?.doc_aggs[0]).toMatchObject({ doc_name: "tides.txt", doc_id: retrieval.output.items![tides].hit!.chunk.documentId });
    expect(generate.tokens).toBeGreaterThan(0);
  });
});

describe("the team's default model through the model service", () => {
  test("is known as the built-in extractive model, so that the components that need text written decide lexically", async () => {
    expect((await server.services.models.client(owner.tenantId, "chat")).extractive).toBe(true);
    const { output } = await runComponent(keywordExtractComponent, { params: { top_n: 2 }, input: "Why does sourdough bread rise slowly?", ports: ownerPorts() });
    expect(output.content).toBe("sourdough, bread");
  });
});

describe("Agent", () => {
  test("searches the knowledge bases it names as a tool, as its runner, and cites what it found", async () => {
    chat.script = (request) =>
      request.messages.some((m) => m.role === "tool") ? "Sourdough rises slowly [ID:0]." : { toolCalls: [{ name: "search_knowledge_bases", arguments: { query: "sourdough bread yeast" } }] };
    const ports = { ...ownerPorts(), chatModel: async () => chat.model() };
    const run = await runComponent(agentComponent, { params: { kb_ids: [kb.id, strangersKb.id], top_n: 1 }, history: [{ role: "user", content: "Why does sourdough rise slowly?" }], ports });
    const tool = chat.requests().at(-1)!.messages.find((m) => m.role === "tool")!;
    expect(tool.content).toContain("wild yeast ferments the dough");
    expect(tool.content).not.toContain("secret bay");
    expect(run.output.content).toBe("Sourdough rises slowly [ID:0].");
    expect(run.output.reference?.chunks.map((c) => c.document_name)).toEqual(["bread.txt"]);
  });
});
