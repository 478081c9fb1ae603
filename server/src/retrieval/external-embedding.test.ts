import type { SignedIn } from "../policies/principal";
import type { KnowledgeBase } from "../knowledge/knowledge-base.entity";
import { signUpAndIn, startTestServer, type TestServer } from "../testing/app";
import { parsedKnowledgeBase } from "../testing/knowledge-bases";
import { sendJson, startVendorServer, type VendorServer } from "../testing/vendor-servers";

/**
 * Hybrid retrieval with an external embedding model: a knowledge base embedded by a model on a local server that
 * speaks OpenAI's `POST /v1/embeddings`. The model is deterministic and semantic in the simplest way: each
 * dimension is a concept, and a word adds to its concept's dimension (car, automobile and vehicle alike), so it
 * knows synonyms that keyword search does not, and nothing of words outside its concepts (a product code). Each
 * signal alone misses one kind of question; their weighted sum, with the product's default weight, gets both.
 */

const CONCEPTS = [
  ["car", "cars", "automobile", "automobiles", "vehicle", "vehicles"],
  ["doctor", "doctors", "physician", "physicians", "surgeon", "surgeons"],
  ["salary", "salaries", "pay", "wage", "wages", "income"],
  ["price", "prices", "cost", "fare", "fee"],
  ["boat", "boats", "ferry", "ferries", "ship", "ships"],
  ["island", "islands"],
  ["moon", "tide", "tides", "ocean"],
  ["bread", "dough", "yeast"],
];
const conceptOf = new Map(CONCEPTS.flatMap((words, dimension) => words.map((word) => [word, dimension] as const)));

/** The model's vector of a text: concept counts, normalised; a text of no known concept gets a dimension of its own. */
function conceptVector(text: string): number[] {
  const vector = Array.from({ length: CONCEPTS.length + 1 }, () => 0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const dimension = conceptOf.get(word);
    if (dimension !== undefined) vector[dimension] += 1;
  }
  if (!vector.some((x) => x !== 0)) vector[CONCEPTS.length] = 1;
  const norm = Math.hypot(...vector);
  return vector.map((x) => x / norm);
}

/** Neutral names: a document's name is indexed and embedded too, and must not take sides. */
const FILES = {
  "a.txt": "The XR-7 is a small car sold at a low price.",
  "b.txt": "A car is a vehicle; every automobile needs fuel.",
  "c.txt": "The surgeon has a good salary.",
  "d.txt": "Salary tables: salary by grade, salary by year.",
  "e.txt": "The ZQ-9 ferry crosses to the island twice a day.",
  "f.txt": "A ferry is a boat, and a ship is a bigger boat.",
  "g.txt": "Tides follow the moon over the ocean.",
  "h.txt": "Bread rises overnight while the yeast works the dough.",
};

/** Each question and the one document that answers it. */
const QUESTIONS: [question: string, answer: keyof typeof FILES][] = [
  // A product code: only keyword search reads it; the model sees just "car" or "boat".
  ["XR-7 car", "a.txt"],
  ["ZQ-9 boat", "e.txt"],
  // Another word for the same thing: only the model knows that a surgeon is a physician, or a wage a salary.
  ["physician salary", "c.txt"],
  ["doctor wage", "c.txt"],
];

let server: TestServer;
let models: VendorServer;
let owner: SignedIn;
let kb: KnowledgeBase;

beforeAll(async () => {
  models = await startVendorServer((request, response) => {
    const input = request.json.input as string[];
    sendJson(response, 200, { object: "list", data: input.map((text, index) => ({ object: "embedding", index, embedding: conceptVector(text) })), usage: { prompt_tokens: input.length, total_tokens: input.length } });
  });
  server = await startTestServer();
  const principal = await server.services.principalFor(`Bearer ${(await signUpAndIn(server)).token}`);
  if (principal.kind === "anonymous" || principal.kind === "share" || principal.kind === "flowShare") throw new Error("not signed in");
  owner = principal;
  await server.services.models.addEntry(owner, { provider: "OpenAI-API-Compatible", modelName: "concepts", modelType: "embedding", credentials: { apiKey: "", baseUrl: `${models.url}/v1` } });
  kb = (await parsedKnowledgeBase(server, owner, FILES, { embeddingModel: "concepts@OpenAI-API-Compatible" })).knowledgeBase;
}, 120_000);

afterAll(async () => {
  await server?.close();
  await models?.close();
});

/** The mean reciprocal rank of the answers over the questions, with the vector similarity at `weight`. */
async function meanReciprocalRank(vectorSimilarityWeight: number): Promise<{ mrr: number; firsts: string[] }> {
  let sum = 0;
  const firsts: string[] = [];
  for (const [question, answer] of QUESTIONS) {
    const { hits } = await server.services.retrieval.retrieve(owner, { question, knowledgeBaseIds: [kb.id], vectorSimilarityWeight, similarityThreshold: 0 });
    const rank = hits.findIndex((hit) => hit.documentName === answer) + 1;
    sum += rank > 0 ? 1 / rank : 0;
    firsts.push(hits[0]?.documentName ?? "");
  }
  return { mrr: sum / QUESTIONS.length, firsts };
}

test("the chunks are embedded by the external model, through its wire protocol", () => {
  expect(kb.embeddingModel).toBe("concepts@OpenAI-API-Compatible");
  expect(kb.chunkCount).toBe(Object.keys(FILES).length);
  expect(models.requests.some((r) => r.path === "/v1/embeddings" && r.json.model === "concepts")).toBe(true);
});

test("hybrid retrieval at the default weight beats keyword search alone and vector search alone", async () => {
  const keyword = await meanReciprocalRank(0);
  const vector = await meanReciprocalRank(1);
  const hybrid = await meanReciprocalRank(0.3);
  // Each alone misses one kind of question...
  expect(keyword.firsts).toEqual(["a.txt", "e.txt", "d.txt", expect.any(String)]);
  expect(vector.firsts.slice(0, 2)).toEqual(["b.txt", "f.txt"]);
  // ...and the sum answers every question first.
  expect(hybrid.firsts).toEqual(QUESTIONS.map(([, answer]) => answer));
  expect(hybrid.mrr).toBe(1);
  expect(hybrid.mrr).toBeGreaterThan(keyword.mrr);
  expect(hybrid.mrr).toBeGreaterThan(vector.mrr);
});
