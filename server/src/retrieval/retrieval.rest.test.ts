import type { SignedIn } from "../policies/principal";
import { closeTesseract } from "../models/builtin/tesseract-ocr";
import { apiUser, createDataset, rawRequest, type ApiUser } from "../testing/rest-support";
import { startTestServer, type TestServer } from "../testing/app";
import { parsedDataset } from "../testing/knowledge-bases";

/** RAGFlow's retrieval endpoints through the real server: embedded database, built-in embedding, the parse pipeline. */

let server: TestServer;
let owner: ApiUser;
let stranger: ApiUser;
/** RAGFlow's fixture (contract §5.2): one parsed document, four chunks added by hand. */
let datasetId: string;
let documentId: string;
/** Other texts: English, Chinese, with metadata. */
let miscId: string;
let miscDocs: Record<string, string>;

const ADDED = ["chunk test 0", "chunk test 1", "chunk test 2", "chunk test 3"];
const MISC = {
  "turbines.txt": "Wind turbines convert the kinetic energy of wind into electricity. Turbine blades are inspected every spring.",
  "bread.txt": "Sourdough bread rises slowly because wild yeast ferments the dough overnight.",
  "tides.txt": "Tides are caused by the gravitational pull of the moon on the oceans.",
  "chinese.txt": "检索增强生成系统先从知识库中检索相关段落，再让模型生成答案。",
};

const retrieve = (body: unknown, user = owner) => server.rest("POST", "/api/v1/retrieval", { token: user.key, body });
const dify = (body: unknown, key = owner.key) => server.rest("POST", "/api/v1/dify/retrieval", { token: key, body });
const contents = (chunks: { content: string }[]) => chunks.map((c) => c.content).sort();

async function principalOf(user: ApiUser): Promise<SignedIn> {
  const principal = await server.services.principalFor(`Bearer ${user.key}`);
  if (principal.kind === "anonymous" || principal.kind === "share" || principal.kind === "flowShare") throw new Error("not signed in");
  return principal;
}

beforeAll(async () => {
  server = await startTestServer({ MODEL_CACHE_DIR: "/tmp/cairn-model-cache" });
  [owner, stranger] = [await apiUser(server), await apiUser(server)];
  ({ datasetId, documentIds: [documentId] } = await parsedDataset(server, owner, { "ragflow_test.txt": "This is the content of a test TXT file." }));
  for (const content of ADDED) {
    const added = await server.rest("POST", `/api/v1/datasets/${datasetId}/documents/${documentId}/chunks`, { token: owner.key, body: { content } });
    if (added.body.code !== 0) throw new Error(JSON.stringify(added.body));
  }
  const misc = await parsedDataset(server, owner, MISC);
  miscId = misc.datasetId;
  miscDocs = Object.fromEntries(Object.keys(MISC).map((name, i) => [name, misc.documentIds[i]]));
}, 240_000);

afterAll(async () => {
  await server?.close();
  await closeTesseract();
});

describe("POST /api/v1/retrieval, RAGFlow's fixture (contract §5.2)", () => {
  it.each([
    ["the defaults", {}],
    ["vector_similarity_weight 0", { vector_similarity_weight: 0 }],
    ["vector_similarity_weight 0.5", { vector_similarity_weight: 0.5 }],
    ["vector_similarity_weight 10", { vector_similarity_weight: 10 }],
    ["page_size 5", { page_size: 5 }],
    ["top_k 10", { top_k: 10 }],
    ["top_k 1", { top_k: 1 }],
    ["the document named", { document_ids: ["<document>"] }],
  ])("'chunk' finds exactly the four added chunks, never the parsed one, with %s", async (_, extra) => {
    const body = { question: "chunk", dataset_ids: [datasetId], ...extra } as Record<string, unknown>;
    if (body.document_ids) body.document_ids = [documentId];
    const answer = await retrieve(body);
    expect(answer.body.code).toBe(0);
    expect(answer.body).not.toHaveProperty("message");
    expect(contents(answer.body.data.chunks)).toEqual(ADDED);
    expect(answer.body.data.total).toBe(4);
    expect(answer.body.data.doc_aggs).toEqual([{ doc_name: "ragflow_test.txt", doc_id: documentId, count: 4 }]);
  });

  it("answers each chunk with RAGFlow's keys, the three similarities consistent with the weight", async () => {
    const answer = await retrieve({ question: "chunk", dataset_ids: [datasetId], vector_similarity_weight: 0.5 });
    for (const chunk of answer.body.data.chunks) {
      expect(Object.keys(chunk).sort()).toEqual(
        [
          "id",
          "content",
          "content_ltks",
          "document_id",
          "document_keyword",
          "dataset_id",
          "important_keywords",
          "image_id",
          "positions",
          "similarity",
          "vector_similarity",
          "term_similarity",
          "doc_type_kwd",
          "mom_id",
        ].sort(),
      );
      expect(chunk).toMatchObject({ document_id: documentId, document_keyword: "ragflow_test.txt", dataset_id: datasetId, image_id: "", positions: [], important_keywords: [] });
      expect(chunk.id).toMatch(/^[0-9a-f]{16}$/);
      expect(chunk.content_ltks).toMatch(/^chunk test \d$/);
      expect(chunk.similarity).toBeCloseTo(0.5 * chunk.term_similarity + 0.5 * chunk.vector_similarity, 6);
    }
  });

  it.each([true, "True", "TRUE"])("highlight %j gives every chunk its highlight, the matched word marked", async (highlight) => {
    const { chunks } = (await retrieve({ question: "chunk", dataset_ids: [datasetId], highlight })).body.data;
    expect(chunks).toHaveLength(4);
    for (const chunk of chunks) expect(chunk.highlight).toBe(chunk.content.replace("chunk", "<em>chunk</em>"));
  });

  it.each([false, "False", "false", undefined, null])("highlight %j gives no chunk a highlight", async (highlight) => {
    const { chunks } = (await retrieve({ question: "chunk", dataset_ids: [datasetId], highlight })).body.data;
    expect(chunks).toHaveLength(4);
    for (const chunk of chunks) expect(chunk).not.toHaveProperty("highlight");
  });

  it("pages inside the results, page numbers read with int()", async () => {
    const all = (await retrieve({ question: "chunk", dataset_ids: [datasetId] })).body.data.chunks.map((c: { id: string }) => c.id);
    const second = (await retrieve({ question: "chunk", dataset_ids: [datasetId], page: 2, page_size: 2 })).body.data;
    expect(second.chunks.map((c: { id: string }) => c.id)).toEqual(all.slice(2, 4));
    expect(second.total).toBe(4);
    const third = (await retrieve({ question: "chunk", dataset_ids: [datasetId], page: "3", page_size: "2" })).body.data;
    expect(third).toMatchObject({ chunks: [], total: 4 });
  });

  it("an empty or blank question answers nothing, doc_aggs an object", async () => {
    for (const question of ["", "   "]) {
      expect((await retrieve({ question, dataset_ids: [datasetId] })).body).toEqual({ code: 0, data: { total: 0, chunks: [], doc_aggs: {} } });
    }
  });

  it("a high threshold drops everything; a weight of 0 ignores it", async () => {
    expect((await retrieve({ question: "chunk", dataset_ids: [datasetId], similarity_threshold: "0.99", vector_similarity_weight: 0.5 })).body.data).toEqual({
      total: 0,
      chunks: [],
      doc_aggs: [],
    });
    expect((await retrieve({ question: "chunk", dataset_ids: [datasetId], similarity_threshold: 0.99, vector_similarity_weight: 0 })).body.data.total).toBe(4);
  });

  it("100 concurrent retrievals all succeed", async () => {
    const answers = await Promise.all(Array.from({ length: 100 }, () => retrieve({ question: "chunk", dataset_ids: [datasetId] })));
    for (const answer of answers) expect(contents(answer.body.data.chunks)).toEqual(ADDED);
  }, 60_000);

  it("unknown keys are ignored, and keyword, cross_languages, use_kg and toc_enhance are accepted", async () => {
    const answer = await retrieve({ question: "chunk", dataset_ids: [datasetId], unknown: 1, keyword: false, cross_languages: [], use_kg: false, toc_enhance: false });
    expect(contents(answer.body.data.chunks)).toEqual(ADDED);
  });
});

describe("POST /api/v1/retrieval refuses as RAGFlow does, in its order", () => {
  it.each([
    ["no dataset_ids", { question: "chunk" }, 102, "`dataset_ids` is required."],
    ["empty dataset_ids", { question: "chunk", dataset_ids: [] }, 102, "`dataset_ids` is required."],
    ["null dataset_ids", { question: "chunk", dataset_ids: null }, 102, "`dataset_ids` is required."],
    ["dataset_ids not a list", { question: "chunk", dataset_ids: "abc" }, 102, "`dataset_ids` should be a list"],
    ["an unknown dataset", { question: "chunk", dataset_ids: ["0123456789abcdef0123456789abcdef"] }, 102, "You don't own the dataset 0123456789abcdef0123456789abcdef."],
    ["no question", { dataset_ids: ["<dataset>"] }, 102, "`question` is required."],
    ["document_ids not a list", { question: "chunk", dataset_ids: ["<dataset>"], document_ids: "x" }, 102, "`documents` should be a list"],
    ["a document not in the datasets", { question: "chunk", dataset_ids: ["<dataset>"], document_ids: ["nope"] }, 102, "The datasets don't own the document nope"],
    ["a bad highlight", { question: "chunk", dataset_ids: ["<dataset>"], highlight: "yes" }, 102, "`highlight` should be a boolean"],
    ["a numeric highlight", { question: "chunk", dataset_ids: ["<dataset>"], highlight: 1 }, 102, "`highlight` should be a boolean"],
    ["a page that is not an integer", { question: "chunk", dataset_ids: ["<dataset>"], page: "a" }, 100, `ValueError("invalid literal for int() with base 10: 'a'")`],
    ["a threshold that is not a number", { question: "chunk", dataset_ids: ["<dataset>"], similarity_threshold: "x" }, 100, `ValueError("could not convert string to float: 'x'")`],
    ["an unknown rerank model", { question: "chunk", dataset_ids: ["<dataset>"], rerank_id: "no-such-reranker" }, 100, `LookupError('Model(no-such-reranker) not authorized')`],
  ])("%s", async (_, body: Record<string, unknown>, code, message) => {
    const answer = await retrieve(JSON.parse(JSON.stringify(body).replace(/<dataset>/g, datasetId)));
    expect(answer.body).toMatchObject({ code, message });
  });

  it.each([0, -1])("top_k %d is code 100, 'must be greater than 0'", async (top_k) => {
    const answer = await retrieve({ question: "chunk", dataset_ids: [datasetId], top_k });
    expect(answer.body.code).toBe(100);
    expect(answer.body.message).toContain("must be greater than 0");
  });

  it("asks for an API key", async () => {
    expect((await rawRequest(server, "POST", "/api/v1/retrieval", "wrong", "application/json", "{}")).body).toEqual({
      code: 109,
      message: "Authentication error: API key is invalid!",
      data: false,
    });
  });
});

describe("POST /api/v1/retrieval over Cairn's own texts", () => {
  it("another tenant's key is refused the dataset and its documents, and finds nothing", async () => {
    expect((await retrieve({ question: "chunk", dataset_ids: [datasetId] }, stranger)).body).toEqual({ code: 102, message: `You don't own the dataset ${datasetId}.` });
    const own = await createDataset(server, stranger);
    expect((await retrieve({ question: "chunk", dataset_ids: [own, datasetId] }, stranger)).body).toEqual({ code: 102, message: `You don't own the dataset ${datasetId}.` });
    expect((await retrieve({ question: "chunk", dataset_ids: [own], document_ids: [documentId] }, stranger)).body).toEqual({
      code: 102,
      message: `The datasets don't own the document ${documentId}`,
    });
    expect((await retrieve({ question: "chunk", dataset_ids: [own] }, stranger)).body.data.chunks).toEqual([]);
  });

  it("a Chinese question finds the Chinese text, highlighted", async () => {
    const { chunks } = (await retrieve({ question: "知识库检索", dataset_ids: [miscId], highlight: true })).body.data;
    expect(chunks[0].document_keyword).toBe("chinese.txt");
    expect(chunks[0].highlight).toContain("<em>检索</em>");
  });

  it("searches several datasets at once, one page over both, with per-document counts", async () => {
    const answer = await retrieve({ question: "chunk wind turbines", dataset_ids: [datasetId, miscId], similarity_threshold: 0 });
    const names = answer.body.data.doc_aggs.map((d: { doc_name: string }) => d.doc_name);
    expect(names).toEqual(["ragflow_test.txt", "turbines.txt"]);
    expect(answer.body.data.doc_aggs[0].count).toBe(4);
  });

  it("a disabled chunk is never returned", async () => {
    const found = (await retrieve({ question: "sourdough yeast", dataset_ids: [miscId] })).body.data.chunks;
    const bread = found.find((c: { document_keyword: string }) => c.document_keyword === "bread.txt");
    const path = `/api/v1/datasets/${miscId}/documents/${bread.document_id}/chunks/${bread.id}`;
    expect((await server.rest("PUT", path, { token: owner.key, body: { available: false } })).body.code).toBe(0);
    try {
      const after = (await retrieve({ question: "sourdough yeast", dataset_ids: [miscId], similarity_threshold: 0 })).body.data;
      expect(after.chunks.map((c: { id: string }) => c.id)).not.toContain(bread.id);
    } finally {
      await server.rest("PUT", path, { token: owner.key, body: { available: true } });
    }
    expect((await retrieve({ question: "sourdough yeast", dataset_ids: [miscId] })).body.data.chunks[0].id).toBe(bread.id);
  });

  it("a bare rerank model name is resolved against the tenant's rerank models", async () => {
    const answer = await retrieve({ question: "moon tides", dataset_ids: [miscId], rerank_id: "cairn-lexical-rerank" });
    expect(answer.body.code).toBe(0);
    expect(answer.body.data.chunks[0].document_keyword).toBe("tides.txt");
  });

  it("metadata_condition narrows to the documents it matches; matching none answers nothing", async () => {
    const principal = await principalOf(owner);
    await server.services.documents.setMetaFields(principal, miscDocs["tides.txt"], { topic: "Ocean", year: 2021 });
    await server.services.documents.setMetaFields(principal, miscDocs["turbines.txt"], { topic: "energy", year: 2024 });
    const names = async (metadata_condition: unknown, extra = {}) =>
      (await retrieve({ question: "moon wind", dataset_ids: [miscId], similarity_threshold: 0, metadata_condition, ...extra })).body.data.chunks.map(
        (c: { document_keyword: string }) => c.document_keyword,
      );
    expect(await names({ conditions: [{ name: "topic", comparison_operator: "is", value: "ocean" }] })).toEqual(["tides.txt"]);
    expect(await names({ conditions: [{ name: "year", comparison_operator: ">", value: "2022" }] })).toEqual(["turbines.txt"]);
    expect((await names({ logic: "or", conditions: [{ name: "topic", comparison_operator: "contains", value: "e" }] })).sort()).toEqual(["tides.txt", "turbines.txt"]);
    expect(
      (await retrieve({ question: "moon", dataset_ids: [miscId], metadata_condition: { conditions: [{ name: "absent", comparison_operator: "is", value: "x" }] } })).body,
    ).toEqual({ code: 0, data: { total: 0, chunks: [], doc_aggs: {} } });
    // Named documents win over the condition.
    expect(await names({ conditions: [{ name: "topic", comparison_operator: "is", value: "ocean" }] }, { document_ids: [miscDocs["turbines.txt"]] })).toEqual(["turbines.txt"]);
  });

  it("datasets with different embedding models are searched together (a deliberate difference from RAGFlow)", async () => {
    const { datasetId: other } = await parsedDataset(server, owner, { "volcano.txt": "Volcanoes erupt molten rock called lava." }, { body: { embedding_model: "cairn-embedding@Builtin" } });
    const answer = await retrieve({ question: "chunk lava", dataset_ids: [datasetId, other], similarity_threshold: 0 });
    expect(answer.body.code).toBe(0);
    expect(answer.body.data.doc_aggs.map((d: { doc_name: string }) => d.doc_name).sort()).toEqual(["ragflow_test.txt", "volcano.txt"]);
  });
});

describe("POST /api/v1/dify/retrieval (contract §5.4)", () => {
  it("an unknown key is HTTP 403", async () => {
    const answer = await dify({ knowledge_id: datasetId, query: "chunk" }, "ragflow-nope");
    expect(answer).toEqual({ status: 403, body: { code: 403, message: "API-KEY is invalid!" } });
  });

  it("names the missing keys after the key check", async () => {
    expect((await dify({})).body).toEqual({ code: 101, message: "required argument are missing: knowledge_id,query; ", data: null });
    expect((await dify({ knowledge_id: datasetId })).body).toEqual({ code: 101, message: "required argument are missing: query; ", data: null });
  });

  it("an unknown knowledge base, or another tenant's, is HTTP 404", async () => {
    expect(await dify({ knowledge_id: "0123456789abcdef0123456789abcdef", query: "chunk" })).toEqual({ status: 404, body: { code: 404, message: "Knowledgebase not found!" } });
    expect(await dify({ knowledge_id: datasetId, query: "chunk" }, stranger.key)).toEqual({ status: 404, body: { code: 404, message: "Knowledgebase not found!" } });
  });

  it("answers records without an envelope, the document's metadata and id in each", async () => {
    const answer = await dify({ knowledge_id: miscId, query: "moon tides", retrieval_setting: { score_threshold: 0.2, top_k: 5 } });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(["records"]);
    const [first] = answer.body.records;
    expect(first).toEqual({
      content: MISC["tides.txt"],
      score: expect.any(Number),
      title: "tides.txt",
      metadata: expect.objectContaining({ doc_id: miscDocs["tides.txt"] }),
    });
    for (const record of answer.body.records) expect(record.score).toBeGreaterThanOrEqual(0.2);
  });

  it("the four added chunks for 'chunk'; top_k 0 is HTTP 500", async () => {
    expect(contents((await dify({ knowledge_id: datasetId, query: "chunk" })).body.records)).toEqual(ADDED);
    const refused = await dify({ knowledge_id: datasetId, query: "chunk", retrieval_setting: { top_k: 0 } });
    expect(refused.status).toBe(500);
    expect(refused.body.message).toContain("must be greater than 0");
  });
});
