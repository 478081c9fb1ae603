import type http from "node:http";
import type { SignedIn } from "../policies/principal";
import type { KnowledgeBase } from "../knowledge/knowledge-base.entity";
import { BuiltinLexicalRerank } from "../models/builtin/lexical-rerank";
import { signUpAndIn, startTestServer, type TestServer } from "../testing/app";
import { parsedKnowledgeBase } from "../testing/knowledge-bases";
import { sendJson, startVendorServer, type RecordedRequest, type VendorServer } from "../testing/vendor-servers";
import type { RetrievalHit } from "./retrieval.service";

/**
 * Retrieval with a rerank model of each family the model registry offers, each served by a local server
 * speaking that family's protocol: hybrid similarity = (1 − v) · term similarity + v · rerank score (§9).
 */

const FILES = {
  "turbines.txt": "Wind turbines convert the kinetic energy of wind into electricity. Turbine blades are inspected every spring.",
  "bread.txt": "Sourdough bread rises slowly because wild yeast ferments the dough overnight.",
  "tides.txt": "Tides are caused by the gravitational pull of the moon on the oceans.",
  "solar.txt": "Solar panels turn sunlight into electricity on sunny roofs.",
};
const QUESTION = "wind electricity tides bread";

/** What every rerank server answers: the turbines text, the best keyword match, is the one it likes least. */
const SERVER_SCORES: [string, number][] = [
  ["Tides", 0.93],
  ["Sourdough", 0.61],
  ["Solar", 0.35],
  ["Wind turbines", 0.08],
];
const serverScore = (text: string) => SERVER_SCORES.find(([word]) => text.includes(word))?.[1] ?? 0.01;
const scored = (texts: string[]) => texts.map((text, index) => ({ index, score: serverScore(text) })).sort((a, b) => b.score - a.score);

const ADD_MODEL = `mutation Add($input: ModelEntryInput!) { addModelEntry(input: $input) { modelId } }`;
const RETRIEVE = `query Retrieve($input: RetrievalInput!) { retrieve(input: $input) { total } }`;

interface Family {
  family: string;
  provider: string;
  modelName: string;
  apiKey?: string;
  /** The base URL the user would give, from the local server's address. */
  baseUrl(server: string): string;
  path: string;
  handler(request: RecordedRequest, response: http.ServerResponse): void;
  /** The question and the candidate texts as the server received them. */
  sent(request: RecordedRequest): { query: string; texts: string[] };
  /** The vendor's own answer when it fails. */
  failure(response: http.ServerResponse): void;
}

const FAMILIES: Family[] = [
  {
    family: "OpenAI-compatible /rerank (vLLM's answer)",
    provider: "OpenAI-API-Compatible",
    modelName: "BAAI/bge-reranker-v2-m3",
    baseUrl: (url) => `${url}/v1`,
    path: "/v1/rerank",
    handler(request, response) {
      const documents = request.json.documents as string[];
      const results = scored(documents).map(({ index, score }) => ({ index, document: { text: documents[index] }, relevance_score: score }));
      sendJson(response, 200, { id: "rerank-1", model: request.json.model, usage: { total_tokens: 57 }, results });
    },
    sent: (request) => ({ query: request.json.query, texts: request.json.documents }),
    failure: (response) => sendJson(response, 503, { object: "error", message: "The model is loading, try again later", type: "ServiceUnavailableError", code: 503 }),
  },
  {
    family: "Jina",
    provider: "Jina",
    modelName: "jina-reranker-v2-base-multilingual",
    apiKey: "jina_test_key",
    baseUrl: (url) => `${url}/v1`,
    path: "/v1/rerank",
    handler(request, response) {
      if (request.headers.authorization !== "Bearer jina_test_key") return sendJson(response, 401, { detail: "Invalid API key" });
      const results = scored(request.json.documents).map(({ index, score }) => ({ index, relevance_score: score }));
      sendJson(response, 200, { model: request.json.model, usage: { total_tokens: 64 }, results });
    },
    sent: (request) => ({ query: request.json.query, texts: request.json.documents }),
    failure: (response) => sendJson(response, 503, { detail: "Service temporarily unavailable" }),
  },
  {
    family: "Cohere",
    provider: "Cohere",
    modelName: "rerank-v3.5",
    apiKey: "co-test-key",
    baseUrl: (url) => url,
    path: "/v2/rerank",
    handler(request, response) {
      if (request.headers.authorization !== "Bearer co-test-key") return sendJson(response, 401, { id: "e", message: "invalid api token" });
      const results = scored(request.json.documents)
        .slice(0, request.json.top_n)
        .map(({ index, score }) => ({ index, relevance_score: score }));
      sendJson(response, 200, { id: "r1", results, meta: { api_version: { version: "2" }, billed_units: { search_units: 1 } } });
    },
    sent: (request) => ({ query: request.json.query, texts: request.json.documents }),
    failure: (response) => sendJson(response, 503, { id: "e", message: "service unavailable, please retry" }),
  },
  {
    family: "TEI (HuggingFace)",
    provider: "HuggingFace",
    modelName: "BAAI/bge-reranker-v2-m3",
    baseUrl: (url) => url,
    path: "/rerank",
    handler(request, response) {
      sendJson(response, 200, scored(request.json.texts), { "x-compute-tokens": "48" });
    },
    sent: (request) => ({ query: request.json.query, texts: request.json.texts }),
    failure: (response) => sendJson(response, 503, { error: "unhealthy", error_type: "unhealthy" }),
  },
];

let server: TestServer;
let owner: SignedIn;
let token: string;
let kb: KnowledgeBase;

beforeAll(async () => {
  server = await startTestServer();
  token = (await signUpAndIn(server)).token;
  const principal = await server.services.principalFor(`Bearer ${token}`);
  if (principal.kind === "anonymous" || principal.kind === "share" || principal.kind === "flowShare") throw new Error("not signed in");
  owner = principal;
  ({ knowledgeBase: kb } = await parsedKnowledgeBase(server, owner, FILES, { name: "Rerank" }));
}, 120_000);

afterAll(() => server?.close());

const retrieve = (extra: Record<string, unknown> = {}) =>
  server.services.retrieval.retrieve(owner, { question: QUESTION, knowledgeBaseIds: [kb.id], similarityThreshold: 0, ...extra });

/** The candidates the service reranks: every chunk that shares a word with the question (the knowledge base is small). */
async function candidateTexts(): Promise<string[]> {
  return (await retrieve({ pageSize: 100 })).hits.map((h) => h.chunk.content);
}

/** The rerank score stands in the vector similarity's place (as RAGFlow reports it), so the three numbers add up. */
function expectHybrid(hits: RetrievalHit[], v: number, rerankScore: (text: string) => number) {
  for (const hit of hits) {
    expect(hit.vectorSimilarity).toBeCloseTo(rerankScore(hit.chunk.content), 6);
    expect(hit.similarity).toBeCloseTo((1 - v) * hit.termSimilarity + v * hit.vectorSimilarity, 6);
  }
  const similarities = hits.map((h) => h.similarity);
  expect(similarities).toEqual([...similarities].sort((a, b) => b - a));
}

test("without a rerank model the best keyword match comes first (the servers below reverse that)", async () => {
  const { hits } = await retrieve({ vectorSimilarityWeight: 0.7 });
  expect(hits[0].documentName).toBe("turbines.txt");
  expect(hits.map((h) => h.documentName).sort()).toEqual(Object.keys(FILES).sort());
});

describe.each(FAMILIES)("a rerank model from $family", (family) => {
  let vendor: VendorServer;
  let modelId: string;

  beforeAll(async () => {
    vendor = await startVendorServer(family.handler);
    const credentials = [{ name: "baseUrl", value: family.baseUrl(vendor.url) }, ...(family.apiKey ? [{ name: "apiKey", value: family.apiKey }] : [])];
    const added = await server.graphql<{ addModelEntry: { modelId: string } }>(ADD_MODEL, { input: { provider: family.provider, modelName: family.modelName, modelType: "rerank", credentials } }, token);
    if (!added.data) throw new Error(JSON.stringify(added.errors));
    modelId = added.data.addModelEntry.modelId;
    expect(modelId).toBe(`${family.modelName}@${family.provider}`);
  });
  afterAll(() => vendor.close());
  afterEach(() => vendor.handle(family.handler));

  test("hybrid similarity is (1 − v) · term similarity + v · the score the server gave", async () => {
    const result = await retrieve({ vectorSimilarityWeight: 0.7, rerankModel: modelId });
    expect(result.hits.length).toBe(4);
    expectHybrid(result.hits, 0.7, serverScore);
    // The rerank score outweighs the keywords: tides first, turbines (the best keyword match) last.
    expect(result.hits[0].documentName).toBe("tides.txt");
    expect(result.hits.at(-1)?.documentName).toBe("turbines.txt");
    expect(result.timings.rerankMs).toBeGreaterThan(0);
  });

  test("with the whole weight on the rerank score, the order is the server's", async () => {
    const { hits } = await retrieve({ vectorSimilarityWeight: 1, rerankModel: modelId });
    expect(hits.map((h) => h.documentName)).toEqual(["tides.txt", "bread.txt", "solar.txt", "turbines.txt"]);
    expect(hits.map((h) => h.similarity)).toEqual(SERVER_SCORES.map(([, score]) => expect.closeTo(score, 6)));
  });

  test("the server received the question and every candidate's text", async () => {
    const before = vendor.requests.length;
    await retrieve({ vectorSimilarityWeight: 0.5, rerankModel: modelId });
    const [request] = vendor.requests.slice(before);
    expect(request.path).toBe(family.path);
    const sent = family.sent(request);
    expect(sent.query).toBe(QUESTION);
    expect([...sent.texts].sort()).toEqual((await candidateTexts()).sort());
  });

  test("a failing server is reported as the provider's error, in words the user's language has", async () => {
    vendor.handle((_, response) => family.failure(response));
    await expect(retrieve({ rerankModel: modelId })).rejects.toMatchObject({
      kind: "MODEL_PROVIDER",
      messageKey: "errors.model.unavailable",
      params: { provider: family.provider, detail: expect.stringMatching(/^HTTP 503: \S/) },
    });
    const answer = await server.graphql(RETRIEVE, { input: { question: QUESTION, knowledgeBaseIds: [kb.id], rerankModel: modelId } }, token);
    expect(answer.errors?.[0]).toMatchObject({
      message: expect.stringContaining(`${family.provider} is unavailable`),
      extensions: { code: "MODEL_PROVIDER_ERROR", messageKey: "errors.model.unavailable", params: { provider: family.provider } },
    });
  });

  test("an answer that is not the protocol's is refused, not read as scores", async () => {
    vendor.handle((_, response) => sendJson(response, 200, { unexpected: true }));
    await expect(retrieve({ rerankModel: modelId })).rejects.toMatchObject({ kind: "MODEL_PROVIDER", messageKey: "errors.model.badRequest", params: { provider: family.provider } });
  });
});

describe("the built-in lexical reranker (cairn-lexical-rerank@Builtin)", () => {
  const modelId = "cairn-lexical-rerank@Builtin";
  let lexical: Map<string, number>;

  beforeAll(async () => {
    // Its scores depend on the batch (document length against the batch's average), so the expectation
    // is computed over the same candidates the service reranks.
    const texts = await candidateTexts();
    const { scores } = await new BuiltinLexicalRerank().rerank(QUESTION, texts);
    lexical = new Map(texts.map((text, i) => [text, scores[i]]));
  }, 120_000);

  test("hybrid similarity is (1 − v) · term similarity + v · its lexical score", async () => {
    const { hits } = await retrieve({ vectorSimilarityWeight: 0.7, rerankModel: modelId });
    expect(hits.length).toBe(4);
    expect(hits.every((h) => lexical.has(h.chunk.content))).toBe(true);
    expectHybrid(hits, 0.7, (text) => lexical.get(text)!);
  });

  test("with the whole weight on the rerank score, the order is its scores'", async () => {
    const { hits } = await retrieve({ vectorSimilarityWeight: 1, rerankModel: modelId });
    const expected = [...lexical.entries()].sort((a, b) => b[1] - a[1]);
    expect(hits.map((h) => h.similarity)).toEqual(expected.map(([, score]) => expect.closeTo(score, 6)));
    expect(hits.map((h) => h.chunk.content)).toEqual(expected.map(([text]) => text));
  });

  test("only reranked candidates are results: the window reaches as deep as the page asked for", async () => {
    const bread = (await retrieve()).hits.find((h) => h.documentName === "bread.txt")!.chunk;
    const added = [];
    for (let i = 0; i < 100; i++) added.push(await server.services.chunks.add(owner, bread.documentId, { content: `Bread note ${i}: the oven bakes sourdough bread at dawn.` }));
    try {
      const ask = (page: number) => retrieve({ question: "sourdough bread", vectorSimilarityWeight: 0.7, rerankModel: modelId, page, pageSize: 30 });
      const first = await ask(1);
      expect(first.total).toBe(64);
      expect(first.hits.length).toBe(30);
      // Page 3 (results 61–90) lies past 64: the window grows to 90 rather than pad the page with unscored chunks.
      const third = await ask(3);
      expect(third.total).toBe(90);
      expect(third.hits.length).toBe(30);
      for (const hit of third.hits) expect(hit.vectorSimilarity).toBeGreaterThan(0);
    } finally {
      await server.services.chunks.delete(owner, added.map((c) => c.id));
    }
  }, 60_000);
});
