import { sharedTestServer, type HttpTestServer } from "../../testing/app";
import { manualChunkId } from "../chunk.service";
import { apiUser, createDataset, uploadDocuments, type ApiUser } from "../../testing/rest-support";
import { parsedDataset } from "../../testing/knowledge-bases";

let server: HttpTestServer;
let owner: ApiUser;
let stranger: ApiUser;
let datasetId: string;
let documentId: string;

const chunksPath = (dataset = datasetId, document = documentId) => `/api/v1/datasets/${dataset}/documents/${document}/chunks`;
const listChunks = (query = "", user = owner) => server.rest("GET", `${chunksPath()}${query}`, { token: user.key });
const addChunk = (body: unknown, user = owner, path = chunksPath()) => server.rest("POST", path, { token: user.key, body });

/** RAGFlow's chunk fixture: one parsed document with the test sentence, then chunks added by hand. */
beforeAll(async () => {
  server = await sharedTestServer();
  [owner, stranger] = [await apiUser(server), await apiUser(server)];
  ({ datasetId, documentIds: [documentId] } = await parsedDataset(server, owner, { "ragflow_test.txt": "This is the content of a test TXT file." }));
}, 120_000);
afterAll(() => server?.close());

describe("adding chunks", () => {
  it("answers the chunk with RAGFlow's id, times and lists, and counts it at once", async () => {
    const before = (await listChunks()).body.data.doc.chunk_count;
    const added = await addChunk({ content: "chunk test 1", important_keywords: ["", "a", "a"], questions: [" why? ", "", "how"] });
    expect(added.body.code).toBe(0);
    expect(added.body).not.toHaveProperty("message");
    const chunk = added.body.data.chunk;
    expect(chunk).toMatchObject({
      id: manualChunkId("chunk test 1", documentId),
      content: "chunk test 1",
      document_id: documentId,
      dataset_id: datasetId,
      important_keywords: ["", "a", "a"],
      questions: ["why?", "how"],
    });
    expect(chunk.id).toMatch(/^[0-9a-f]{16}$/);
    expect(chunk.create_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(chunk.create_timestamp).toBeCloseTo(Date.now() / 1000, -2);
    expect((await listChunks()).body.data.doc.chunk_count).toBe(before + 1);
  });

  it.each([
    [{}, 102, "`content` is required"],
    [{ content: " " }, 102, "`content` is required"],
    [{ content: "x", important_keywords: "a" }, 102, "`important_keywords` is required to be a list"],
    [{ content: "x", questions: "a" }, 102, "`questions` is required to be a list"],
    [{ content: null }, 100, `TypeError("unsupported operand type(s) for +: 'NoneType' and 'str'")`],
    [{ content: 1 }, 100, `TypeError("unsupported operand type(s) for +: 'int' and 'str'")`],
    [{ content: "x", important_keywords: [1] }, 100, "TypeError('sequence item 0: expected str instance, int found')"],
    [{ content: "x", questions: ["a", 2] }, 100, "TypeError('sequence item 1: expected str instance, int found')"],
  ])("refuses %j as RAGFlow does", async (body, code, message) => {
    const refused = await addChunk(body);
    expect(refused.body).toMatchObject({ code, message });
  });

  it("refuses a document that is not in the dataset", async () => {
    expect((await addChunk({ content: "x" }, owner, chunksPath(datasetId, "unknown"))).body).toEqual({ code: 102, message: "You don't own the document unknown." });
  });
});

describe("listing chunks", () => {
  let listed: string;
  let listedDocument: string;
  beforeAll(async () => {
    ({ datasetId: listed, documentIds: [listedDocument] } = await parsedDataset(server, owner, { "ragflow_test.txt": "This is the content of a test TXT file." }, { timeoutMs: 50_000 }));
    for (let i = 0; i < 4; i++) await addChunk({ content: `chunk test ${i}` }, owner, chunksPath(listed, listedDocument));
  }, 60_000);
  const list = (query = "") => server.rest("GET", `${chunksPath(listed, listedDocument)}${query}`, { token: owner.key });

  it("shows 1 parsed and 4 added chunks, all with page_size 0, and the document", async () => {
    const all = await list();
    expect(all.body.data.total).toBe(5);
    expect(all.body.data.doc).toMatchObject({ id: listedDocument, chunk_count: 5, run: "DONE" });
    expect(all.body.data.chunks.map((c: { content: string }) => c.content)).toContain("This is the content of a test TXT file.");
    expect(Object.keys(all.body.data.chunks[0]).sort()).toEqual(["available", "content", "dataset_id", "docnm_kwd", "document_id", "id", "image_id", "important_keywords", "positions", "questions"]);
    expect(all.body.data.chunks[0]).toMatchObject({ docnm_kwd: "ragflow_test.txt", image_id: "", available: true });
    expect((await list("?page_size=0")).body.data.chunks).toHaveLength(5);
    expect((await list("?page_size=1")).body.data.chunks).toHaveLength(1);
    expect((await list("?page_size=6")).body.data.chunks).toHaveLength(5);
  });

  it("searches with <em> highlights, and filters by id", async () => {
    const found = await list("?keywords=chunk");
    expect(found.body.data.total).toBe(4);
    expect(found.body.data.chunks[0].content).toMatch(/<em>chunk<\/em> test \d/);
    expect((await list("?keywords=unknown")).body.data.total).toBe(0);
    // RAGFlow's counts for this fixture (§4.2): the parsed chunk matches through its document's name, added ones do not.
    const ragflow = await list("?keywords=ragflow");
    expect(ragflow.body.data.total).toBe(1);
    expect(ragflow.body.data.chunks[0].content).toBe("This is the content of a test TXT file.");
    expect((await list("?keywords=1")).body.data.chunks.map((c: { content: string }) => c.content)).toEqual(["chunk test <em>1</em>"]);
    expect((await list("?keywords=test")).body.data.total).toBe(5);
    expect((await list("?keywords=CHUNK&page_size=2")).body.data).toMatchObject({ total: 4, chunks: [{}, {}] });
    const id = manualChunkId("chunk test 2", listedDocument);
    expect((await list(`?id=${id}`)).body.data.chunks.map((c: { id: string }) => c.id)).toEqual([id]);
    expect((await list("?id=")).body.data.total).toBe(5);
    expect((await list("?id=0123456789abcdef")).body).toEqual({ code: 404, message: `Chunk not found: ${listed}/0123456789abcdef` });
  });

  it("answers an unknown dataset or document as not owned", async () => {
    expect((await server.rest("GET", chunksPath("unknown", listedDocument), { token: owner.key })).body).toEqual({ code: 102, message: "You don't own the dataset unknown." });
    expect((await server.rest("GET", chunksPath(listed, "unknown"), { token: owner.key })).body).toEqual({ code: 102, message: "You don't own the document unknown." });
  });
});

describe("updating a chunk", () => {
  let chunkId: string;
  beforeAll(async () => {
    chunkId = (await addChunk({ content: "to be edited" })).body.data.chunk.id;
  });
  const put = (body: unknown, id = chunkId) => server.rest("PUT", `${chunksPath()}/${id}`, { token: owner.key, body });

  it("changes content, keywords, questions and availability", async () => {
    expect((await put({ content: "edited text", important_keywords: ["k"], questions: ["q?"], available: false })).body).toEqual({ code: 0 });
    const [chunk] = (await listChunks(`?id=${chunkId}`)).body.data.chunks;
    expect(chunk).toMatchObject({ content: "edited text", important_keywords: ["k"], questions: ["q?"], available: false });
    expect((await put({ content: null, available: 1 })).body).toEqual({ code: 0 });
    expect((await listChunks(`?id=${chunkId}`)).body.data.chunks[0]).toMatchObject({ content: "edited text", available: true });
    expect((await put({})).body).toEqual({ code: 0 });
  });

  it.each([
    [{ important_keywords: "k" }, 102, "`important_keywords` should be a list"],
    [{ questions: "q" }, 102, "`questions` should be a list"],
    [{ important_keywords: [1] }, 100, "TypeError('sequence item 0: expected str instance, int found')"],
    [{ available: "True" }, 100, `ValueError("invalid literal for int() with base 10: 'True'")`],
    [{ positions: "p" }, 102, "`positions` should be a list"],
  ])("refuses %j as RAGFlow does", async (body, code, message) => {
    expect((await put(body)).body).toMatchObject({ code, message });
  });

  it("refuses an unknown chunk", async () => {
    expect((await put({ content: "x" }, "0123456789abcdef")).body).toEqual({ code: 102, message: "Can't find this chunk 0123456789abcdef" });
  });

  it("keeps a Q&A document's chunks a question and an answer", async () => {
    const qaDataset = await createDataset(server, owner, { chunk_method: "qa" });
    const [qaDocument] = await uploadDocuments(server, owner, qaDataset, [{ name: "faq.txt", data: "" }]);
    const id = (await addChunk({ content: "Question?\tAnswer." }, owner, chunksPath(qaDataset, qaDocument))).body.data.chunk.id;
    const edit = (content: string) => server.rest("PUT", `${chunksPath(qaDataset, qaDocument)}/${id}`, { token: owner.key, body: { content } });
    expect((await edit("no answer")).body).toEqual({ code: 102, message: "Q&A must be separated by TAB/ENTER key." });
    expect((await edit("New question?\nNew answer.")).body).toEqual({ code: 0 });
  });
});

describe("deleting chunks", () => {
  let dataset: string;
  let document: string;
  const path = () => chunksPath(dataset, document);
  const del = (body?: unknown) => server.rest("DELETE", path(), { token: owner.key, body });
  const total = async () => (await server.rest("GET", path(), { token: owner.key })).body.data.total;

  beforeAll(async () => {
    dataset = await createDataset(server, owner);
    [document] = await uploadDocuments(server, owner, dataset, [{ name: "d.txt", data: "" }]);
  });

  it("deletes the ones that exist and reports how many it expected", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await addChunk({ content: `delete me ${i}` }, owner, path())).body.data.chunk.id);
    expect((await del({ chunk_ids: [ids[0], "invalid_id"] })).body).toEqual({ code: 102, message: "rm_chunk deleted chunks 1, expect 2" });
    expect((await del({ chunk_ids: [ids[0]] })).body).toEqual({ code: 102, message: "rm_chunk deleted chunks 0, expect 1" });
    expect((await del({ chunk_ids: [ids[1], ids[1]] })).body).toEqual({ code: 0, data: { success_count: 1, errors: [`Duplicate chunk ids: ${ids[1]}`] } });
    expect(await total()).toBe(2);
    expect((await del({ chunk_ids: [] })).body).toEqual({ code: 0 });
    expect(await total()).toBe(0);
    const [listed] = (await server.rest("GET", `/api/v1/datasets?id=${dataset}`, { token: owner.key })).body.data;
    expect(listed.chunk_count).toBe(0);
  });

  it("a chunk of another document is not deleted through this one", async () => {
    const other = (await addChunk({ content: "elsewhere" })).body.data.chunk.id;
    expect((await del({ chunk_ids: [other] })).body).toEqual({ code: 102, message: "rm_chunk deleted chunks 0, expect 1" });
    expect((await listChunks(`?id=${other}`)).body.data.total).toBe(1);
  });

  it("an unknown document is Python's LookupError", async () => {
    expect((await server.rest("DELETE", chunksPath(dataset, "unknown"), { token: owner.key, body: { chunk_ids: [] } })).body).toEqual({
      code: 100,
      message: `LookupError("Can't find the document with ID unknown!")`,
      data: null,
    });
  });
});

describe("another tenant", () => {
  it("gets RAGFlow's ownership errors for every chunk endpoint and changes nothing", async () => {
    const chunkId = (await addChunk({ content: "private chunk" })).body.data.chunk.id;
    const before = (await listChunks()).body.data.total;
    const notOwned = { code: 102, message: `You don't own the dataset ${datasetId}.` };
    expect((await listChunks("", stranger)).body).toEqual(notOwned);
    expect((await addChunk({ content: "intruder" }, stranger)).body).toEqual(notOwned);
    expect((await server.rest("PUT", `${chunksPath()}/${chunkId}`, { token: stranger.key, body: { content: "stolen" } })).body).toEqual(notOwned);
    expect((await server.rest("DELETE", chunksPath(), { token: stranger.key, body: { chunk_ids: [] } })).body).toEqual(notOwned);
    // Through a dataset of its own, the first tenant's document is still out of reach.
    const own = await createDataset(server, stranger);
    expect((await addChunk({ content: "intruder" }, stranger, chunksPath(own, documentId))).body).toEqual({ code: 102, message: `You don't own the document ${documentId}.` });
    expect((await server.rest("DELETE", chunksPath(own, documentId), { token: stranger.key, body: {} })).body.code).toBe(100);
    expect((await fetch(`${server.url}/v1/document/image/${chunkId}`, { headers: { authorization: stranger.token } })).status).toBe(404);
    const after = await listChunks(`?id=${chunkId}`);
    expect(after.body.data.chunks[0].content).toBe("private chunk");
    expect((await listChunks()).body.data.total).toBe(before);
  });
});
