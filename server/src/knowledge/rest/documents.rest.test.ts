import fs from "node:fs";
import path from "node:path";
import { englishMessage } from "../../platform/messages";
import { sharedTestServer, type HttpTestServer } from "../../testing/app";
import { MAX_FILE_BYTES } from "../staged-upload";
import { apiUser, createDataset, multipart, uploadDocuments, waitForParsing, type ApiUser } from "../../testing/rest-support";

let server: HttpTestServer;
let owner: ApiUser;
let stranger: ApiUser;

beforeAll(async () => {
  server = await sharedTestServer();
  [owner, stranger] = [await apiUser(server), await apiUser(server)];
}, 60_000);
afterAll(() => server?.close());

const TXT = "This is the content of a test TXT file.";
const documentsPath = (datasetId: string) => `/api/v1/datasets/${datasetId}/documents`;
const listDocuments = (datasetId: string, query = "", user = owner) => server.rest("GET", `${documentsPath(datasetId)}${query}`, { token: user.key });
const upload = (datasetId: string, files: { name: string; data: string | Buffer }[], user = owner) => multipart(server, documentsPath(datasetId), `Bearer ${user.key}`, files);

/** The objects of a dataset in the disk object store (DATA_DIR/objects/<dataset id>/…). */
function storedObjects(datasetId: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else found.push(full);
    }
  };
  walk(path.join(server.dataDir, "objects", datasetId));
  return found;
}

describe("uploading documents", () => {
  it("answers one object per file with exactly RAGFlow's keys, and counts them on the dataset", async () => {
    const datasetId = await createDataset(server, owner);
    const uploaded = await upload(datasetId, [
      { name: "ragflow_test.txt", data: TXT },
      { name: "ragflow_test.txt", data: TXT },
      { name: "notes.md", data: "# Title\n\nbody" },
    ]);
    expect(uploaded.body.code).toBe(0);
    expect(uploaded.body).not.toHaveProperty("message");
    expect(uploaded.body.data.map((d: { name: string }) => d.name)).toEqual(["ragflow_test.txt", "ragflow_test(1).txt", "notes.md"]);
    expect(Object.keys(uploaded.body.data[0]).sort()).toEqual(
      ["chunk_method", "created_by", "dataset_id", "id", "location", "name", "parser_config", "pipeline_id", "run", "size", "source_type", "suffix", "thumbnail", "type"].sort(),
    );
    expect(uploaded.body.data[0]).toMatchObject({ dataset_id: datasetId, type: "doc", suffix: "txt", size: TXT.length, run: "UNSTART", source_type: "local", chunk_method: "naive", location: "ragflow_test.txt", thumbnail: "" });
    const [dataset] = (await server.rest("GET", `/api/v1/datasets?id=${datasetId}`, { token: owner.key })).body.data;
    expect(dataset.document_count).toBe(3);
  });

  it("refuses an unsupported file with code 500 and its name, and keeps the others", async () => {
    const datasetId = await createDataset(server, owner);
    const uploaded = await upload(datasetId, [
      { name: "a.txt", data: "a" },
      { name: "setup.exe", data: "MZ" },
      { name: "b.unknown", data: "?" },
      { name: "c.json", data: "{}" },
    ]);
    expect(uploaded.body).toEqual({ code: 500, message: "setup.exe: This type of file has not been supported yet!\nb.unknown: This type of file has not been supported yet!" });
    expect((await listDocuments(datasetId)).body.data.docs.map((d: { name: string }) => d.name).sort()).toEqual(["a.txt", "c.json"]);
  });

  it("refuses a file over 10 MB before anything is stored", async () => {
    const datasetId = await createDataset(server, owner);
    const uploaded = await upload(datasetId, [
      { name: "small.txt", data: "small" },
      { name: "big.txt", data: Buffer.alloc(MAX_FILE_BYTES + 1, 0x61) },
    ]);
    expect(uploaded.body).toEqual({ code: 101, message: englishMessage("httpStatus.413") });
    expect((await listDocuments(datasetId)).body.data).toEqual({ total: 0, docs: [] });
    expect(storedObjects(datasetId)).toEqual([]);
    await upload(datasetId, [{ name: "small.txt", data: "small" }]);
    expect(storedObjects(datasetId)).toHaveLength(1);
  });

  it("answers RAGFlow's request errors", async () => {
    const datasetId = await createDataset(server, owner);
    const noFile = await fetch(`${server.url}${documentsPath(datasetId)}`, { method: "POST", headers: { authorization: `Bearer ${owner.key}` }, body: new FormData() });
    expect(await noFile.json()).toEqual({ code: 101, message: "No file part!" });
    expect((await upload(datasetId, [{ name: `${"a".repeat(252)}.txt`, data: "x" }])).body).toEqual({ code: 101, message: "File name must be 255 bytes or less." });
    const unknown = "0f8a2c4e3b1d11f0a5c4e2b3d4f5a6b7";
    expect((await upload(unknown, [{ name: "a.txt", data: "x" }])).body).toEqual({ code: 100, message: `LookupError("Can't find the dataset with ID ${unknown}!")`, data: null });
  });
});

describe("listing documents", () => {
  let datasetId: string;
  let ids: string[];
  beforeAll(async () => {
    datasetId = await createDataset(server, owner);
    ids = [];
    for (const name of ["ragflow_test_upload_0.txt", "ragflow_test_upload_1.txt", "ragflow_test_upload_2.md", "other.json"]) {
      ids.push(...(await uploadDocuments(server, owner, datasetId, [{ name, data: `content of ${name}` }])));
    }
  });

  const names = (body: { data: { docs: { name: string }[] } }) => body.data.docs.map((d) => d.name);

  it("pages newest first with the total of the filtered set", async () => {
    const all = await listDocuments(datasetId);
    expect(all.body.data.total).toBe(4);
    expect(names(all.body)).toEqual(["other.json", "ragflow_test_upload_2.md", "ragflow_test_upload_1.txt", "ragflow_test_upload_0.txt"]);
    expect(all.body.data.docs[0]).toMatchObject({ run: "UNSTART", status: "1", meta_fields: {}, progress: 0, progress_msg: "", chunk_count: 0, token_count: 0, process_begin_at: null });
    expect(names((await listDocuments(datasetId, "?page=0&page_size=2")).body)).toEqual(["other.json", "ragflow_test_upload_2.md"]);
    expect(names((await listDocuments(datasetId, "?page=2&page_size=2&desc=False")).body)).toEqual(["ragflow_test_upload_2.md", "other.json"]);
    expect((await listDocuments(datasetId, "?page_size=0")).body.data).toEqual({ total: 4, docs: [] });
    expect((await listDocuments(datasetId, "?page=5")).body.data.docs).toEqual([]);
    expect((await listDocuments(datasetId, "?orderby=name&desc=false")).body.data.docs[0].name).toBe("other.json");
  });

  it("filters by keywords, suffix, run, id and name", async () => {
    expect((await listDocuments(datasetId, "?keywords=RAGFLOW_TEST")).body.data.total).toBe(3);
    expect(names((await listDocuments(datasetId, "?keywords=0")).body)).toEqual(["ragflow_test_upload_0.txt"]);
    expect((await listDocuments(datasetId, "?keywords=unknown")).body.data).toEqual({ total: 0, docs: [] });
    expect(names((await listDocuments(datasetId, "?suffix=md&suffix=json")).body)).toEqual(["other.json", "ragflow_test_upload_2.md"]);
    expect((await listDocuments(datasetId, "?run=UNSTART&run=3")).body.data.total).toBe(4);
    expect((await listDocuments(datasetId, "?run=DONE")).body.data.total).toBe(0);
    expect(names((await listDocuments(datasetId, `?id=${ids[1]}`)).body)).toEqual(["ragflow_test_upload_1.txt"]);
    expect(names((await listDocuments(datasetId, "?name=other.json&id=")).body)).toEqual(["other.json"]);
    expect((await listDocuments(datasetId, `?id=${ids[1]}&name=other.json`)).body.data).toEqual({ total: 0, docs: [] });
    expect((await listDocuments(datasetId, "?create_time_from=9999999999999")).body.data.docs).toEqual([]);
  });

  it("answers RAGFlow's errors", async () => {
    expect((await listDocuments(datasetId, "?id=unknown")).body).toEqual({ code: 102, message: "You don't own the document unknown." });
    expect((await listDocuments(datasetId, "?name=unknown.txt")).body).toEqual({ code: 102, message: "You don't own the document unknown.txt." });
    expect((await listDocuments(datasetId, "?page=a")).body).toEqual({ code: 100, message: `ValueError("invalid literal for int() with base 10: 'a'")`, data: null });
    expect((await listDocuments(datasetId, "?metadata_condition=%7Bx")).body).toEqual({ code: 102, message: "metadata_condition must be valid JSON." });
    expect((await server.rest("GET", "/api/v1/datasets//documents", { token: owner.key })).body).toEqual({ code: 100, message: "<MethodNotAllowed '405: Method Not Allowed'>", data: null });
  });
});

describe("updating a document", () => {
  let datasetId: string;
  let docId: string;
  beforeAll(async () => {
    datasetId = await createDataset(server, owner);
    [docId] = await uploadDocuments(server, owner, datasetId, [{ name: "ragflow_test_upload_0.txt", data: "zero" }]);
    await uploadDocuments(server, owner, datasetId, [{ name: "ragflow_test_upload_1.txt", data: "one" }]);
  });
  const put = (body: unknown, id = docId) => server.rest("PUT", `${documentsPath(datasetId)}/${id}`, { token: owner.key, body });

  it("renames within RAGFlow's rules", async () => {
    expect((await put({ name: "ragflow_test_upload_1.txt" })).body).toEqual({ code: 102, message: "Duplicated document name in the same dataset." });
    expect((await put({ name: "renamed.pdf" })).body).toEqual({ code: 101, message: "The extension of file can't be changed" });
    expect((await put({ name: "" })).body).toEqual({ code: 101, message: "The extension of file can't be changed" });
    expect((await put({ name: 0 })).body).toEqual({ code: 100, message: `AttributeError("'int' object has no attribute 'encode'")`, data: null });
    expect((await put({ name: null })).body).toEqual({ code: 100, message: `AttributeError("'NoneType' object has no attribute 'encode'")`, data: null });
    const renamed = await put({ name: "RAGFLOW_TEST_UPLOAD_1.TXT" });
    expect(renamed.body.code).toBe(0);
    expect(renamed.body.data).toMatchObject({ id: docId, name: "RAGFLOW_TEST_UPLOAD_1.TXT", location: "RAGFLOW_TEST_UPLOAD_1.TXT", run: "UNSTART" });
    expect(renamed.body.data).not.toHaveProperty("meta_fields");
  });

  it("refuses read-only counters, bad meta_fields and unknown chunk methods", async () => {
    expect((await put({ chunk_count: 1 })).body).toEqual({ code: 102, message: "Can't change `chunk_count`." });
    expect((await put({ token_count: 9 })).body).toEqual({ code: 102, message: "Can't change `token_count`." });
    expect((await put({ progress: 1.0 })).body).toEqual({ code: 102, message: "Can't change `progress`." });
    expect((await put({ meta_fields: [] })).body).toEqual({ code: 102, message: "meta_fields must be a dictionary" });
    expect((await put({ chunk_method: "" })).body).toEqual({ code: 102, message: "`chunk_method`  doesn't exist" });
    expect((await put({ chunk_method: "resume" })).body).toEqual({ code: 102, message: "`chunk_method` resume doesn't exist" });
    expect((await put({ chunk_count: 0, token_count: 0, progress: 0 })).body.code).toBe(0);
  });

  it("replaces meta_fields, disables, and switches the chunk method", async () => {
    expect((await put({ meta_fields: { author: "Ann", year: 2024 } })).body.code).toBe(0);
    expect((await put({ enabled: 0 })).body.data.status).toBe("0");
    const switched = await put({ chunk_method: "qa", parser_config: {} });
    expect(switched.body.data).toMatchObject({ chunk_method: "qa", run: "UNSTART", progress: 0 });
    expect(switched.body.data.parser_config).toMatchObject({ raptor: { use_raptor: false }, graphrag: { use_graphrag: false } });
    const [listed] = (await listDocuments(datasetId, `?id=${docId}`)).body.data.docs;
    expect(listed).toMatchObject({ meta_fields: { author: "Ann", year: 2024 }, status: "0", chunk_method: "qa" });
  });

  it("accepts every parser_config RAGFlow's document update accepts, and stores each key as sent", async () => {
    const nestedRaptor = { use_raptor: { use_raptor: true, prompt: "Summarize {cluster_content}", max_token: 256 } };
    for (const parser_config of [{ delimiter: "" }, { delimiter: "`##`" }, { layout_recognize: "Naive" }, { raptor: nestedRaptor }, { raptor: { use_raptor: false } }, { image_context_size: 0, table_context_size: 16 }, { image_table_context_window: 8 }]) {
      const updated = await put({ chunk_method: "naive", parser_config });
      expect(updated.body.code).toBe(0);
      const [listed] = (await listDocuments(datasetId, `?id=${docId}`)).body.data.docs;
      for (const [key, value] of Object.entries(parser_config)) expect(listed.parser_config[key]).toEqual(value);
    }
    const [dataset] = (await server.rest("GET", `/api/v1/datasets?id=${datasetId}`, { token: owner.key })).body.data;
    expect(dataset.parser_config.delimiter).toBe("\n");
  });

  it("answers a document of another dataset as not owned", async () => {
    const otherDataset = await createDataset(server, owner);
    expect((await server.rest("PUT", `${documentsPath(otherDataset)}/${docId}`, { token: owner.key, body: { name: "x.txt" } })).body).toEqual({
      code: 102,
      message: "The dataset doesn't own the document.",
    });
  });
});

describe("downloading a document", () => {
  it("sends the stored bytes unchanged, as an attachment", async () => {
    const datasetId = await createDataset(server, owner);
    const bytes = Buffer.from([0, 1, 2, 250, 255, 10, 13, 0x41]);
    const [id] = await uploadDocuments(server, owner, datasetId, [{ name: "data bytes.csv", data: bytes }]);
    const response = await fetch(`${server.url}${documentsPath(datasetId)}/${id}`, { headers: { authorization: `Bearer ${owner.key}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/octet-stream");
    expect(response.headers.get("content-disposition")).toBe("attachment; filename=data bytes.csv");
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await server.rest("GET", `${documentsPath(datasetId)}/unknown`, { token: owner.key })).body).toEqual({ code: 102, message: "The dataset not own the document unknown." });
  });
});

describe("deleting documents", () => {
  it("deletes the found ones and names the others in Python's list form", async () => {
    const datasetId = await createDataset(server, owner);
    const ids = await uploadDocuments(server, owner, datasetId, [{ name: "a.txt", data: "a" }, { name: "b.txt", data: "b" }, { name: "c.txt", data: "c" }]);
    const del = (body: unknown) => server.rest("DELETE", documentsPath(datasetId), { token: owner.key, body });
    expect((await del({ ids: [ids[0], "invalid_id", "\n!?。；！？\"'"] })).body).toEqual({ code: 102, message: `Documents not found: ['invalid_id', '\\n!?。；！？"\\'']` });
    expect((await del({ ids: [ids[1], ids[1]] })).body).toEqual({ code: 0, data: { success_count: 1, errors: [`Duplicate document ids: ${ids[1]}`] } });
    expect((await listDocuments(datasetId)).body.data.total).toBe(1);
    expect((await del({ ids: [ids[1]] })).body).toEqual({ code: 102, message: `Documents not found: ['${ids[1]}']` });
    expect((await server.rest("DELETE", documentsPath(datasetId), { token: owner.key, body: "not json" })).body).toEqual({ code: 100, message: `AttributeError("'str' object has no attribute 'get'")`, data: null });
    expect((await del({ ids: [] })).body).toEqual({ code: 0 });
    expect((await listDocuments(datasetId)).body.data.total).toBe(0);
    const [dataset] = (await server.rest("GET", `/api/v1/datasets?id=${datasetId}`, { token: owner.key })).body.data;
    expect(dataset.document_count).toBe(0);
  });
});

describe("parsing documents", () => {
  it("runs to DONE with Task done, and the test sentence becomes exactly one chunk", async () => {
    const datasetId = await createDataset(server, owner);
    const [id] = await uploadDocuments(server, owner, datasetId, [{ name: "ragflow_test.txt", data: TXT }]);
    const started = await server.rest("POST", `/api/v1/datasets/${datasetId}/chunks`, { token: owner.key, body: { document_ids: [id] } });
    expect(started.body).toEqual({ code: 0 });
    const [doc] = await waitForParsing(server, owner, datasetId);
    expect(doc).toMatchObject({ run: "DONE", progress: 1, chunk_count: 1 });
    expect((doc as unknown as { progress_msg: string }).progress_msg).toContain("Task done");
    expect((doc as unknown as { process_duration: number }).process_duration).toBeGreaterThan(0);
    expect(typeof (doc as unknown as { process_begin_at: string }).process_begin_at).toBe("string");
    const [dataset] = (await server.rest("GET", `/api/v1/datasets?id=${datasetId}`, { token: owner.key })).body.data;
    expect(dataset.chunk_count).toBe(1);
  }, 120_000);

  it("queues the found documents, names the missing ones, and reports duplicates", async () => {
    const datasetId = await createDataset(server, owner);
    const ids = await uploadDocuments(server, owner, datasetId, [{ name: "a.txt", data: TXT }, { name: "b.txt", data: TXT }]);
    const parse = (body: unknown) => server.rest("POST", `/api/v1/datasets/${datasetId}/chunks`, { token: owner.key, body });
    expect((await parse({})).body).toEqual({ code: 102, message: "`document_ids` is required" });
    expect((await parse({ document_ids: [] })).body).toEqual({ code: 102, message: "`document_ids` is required" });
    expect((await parse({ document_ids: [ids[0], "invalid_id"] })).body).toEqual({ code: 102, message: "Documents not found: ['invalid_id']" });
    await waitForParsing(server, owner, datasetId);
    expect((await parse({ document_ids: [ids[1], ids[1]] })).body).toEqual({ code: 0, data: { success_count: 1, errors: [`Duplicate document ids: ${ids[1]}`] } });
    const docs = await waitForParsing(server, owner, datasetId);
    expect(docs.filter((d) => d.run === "DONE").length).toBe(2);
  });

  it("stops a parse under way: the document is cancelled and keeps no chunks", async () => {
    const datasetId = await createDataset(server, owner);
    const words = Array.from({ length: 60000 }, (_, i) => `word${i % 977} topic${i % 113}`).join(" ");
    const [id] = await uploadDocuments(server, owner, datasetId, [{ name: "long.txt", data: words }]);
    const stop = (body: unknown) => server.rest("DELETE", `/api/v1/datasets/${datasetId}/chunks`, { token: owner.key, body });
    expect((await stop({ document_ids: [id] })).body).toEqual({ code: 102, message: "Can't stop parsing document with progress at 0 or 1" });
    expect((await stop({ document_ids: ["unknown"] })).body).toEqual({ code: 102, message: "You don't own the document unknown." });
    expect((await stop({})).body).toEqual({ code: 102, message: "`document_ids` is required" });
    await server.rest("POST", `/api/v1/datasets/${datasetId}/chunks`, { token: owner.key, body: { document_ids: [id] } });
    expect((await stop({ document_ids: [id] })).body).toEqual({ code: 0 });
    const [doc] = await waitForParsing(server, owner, datasetId);
    expect(doc).toMatchObject({ run: "CANCEL", chunk_count: 0, progress: 0 });
  });
});

describe("the web routes for files", () => {
  it("uploads all or nothing, with HTTP 413 and the catalogue text for an oversize file", async () => {
    const datasetId = await createDataset(server, owner);
    const ok = await multipart(server, "/v1/document/upload", owner.token, [{ name: "web.txt", data: TXT }], { kb_id: datasetId });
    expect(ok.body).toMatchObject({ code: 0, message: "success" });
    expect(ok.body.data[0]).toMatchObject({ name: "web.txt", run: "UNSTART", dataset_id: datasetId });
    const refused = await multipart(server, "/v1/document/upload", owner.token, [{ name: "x.txt", data: "x" }, { name: "x.exe", data: "MZ" }], { kb_id: datasetId });
    expect(refused.body).toEqual({ code: 101, message: "This type of file has not been supported yet!", data: null });
    const big = await multipart(server, "/v1/document/upload", owner.token, [{ name: "big.txt", data: Buffer.alloc(MAX_FILE_BYTES + 10, 0x62) }], { kb_id: datasetId });
    expect(big).toEqual({ status: 413, body: { code: 413, message: "The total size of the files uploaded at once is too large.", data: null } });
    expect((await listDocuments(datasetId)).body.data.docs.map((d: { name: string }) => d.name)).toEqual(["web.txt"]);
    expect((await multipart(server, "/v1/document/upload", owner.token, [{ name: "a.txt", data: "a" }])).body).toEqual({ code: 101, message: "required argument are missing: kb_id; ", data: null });
  });

  it("serves a document inline for the viewer, typed by its extension", async () => {
    const datasetId = await createDataset(server, owner);
    const [id] = await uploadDocuments(server, owner, datasetId, [{ name: "résumé.txt", data: TXT }]);
    const response = await fetch(`${server.url}/v1/document/get/${id}`, { headers: { authorization: owner.token } });
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(response.headers.get("content-disposition")).toBe("inline; filename*=UTF-8''r%C3%A9sum%C3%A9.txt");
    expect(await response.text()).toBe(TXT);
    expect((await fetch(`${server.url}/v1/document/get/${id}`, { headers: { authorization: stranger.token } })).status).toBe(200);
    expect(await (await fetch(`${server.url}/v1/document/get/${id}`, { headers: { authorization: stranger.token } })).json()).toMatchObject({ code: 102 });
  });

  it("answers 404 for a chunk without an image", async () => {
    expect((await fetch(`${server.url}/v1/document/image/0123456789abcdef`, { headers: { authorization: owner.token } })).status).toBe(404);
  });

  it("tenant_info lists the chunk methods as RAGFlow's parser_ids", async () => {
    const info = await server.rest("GET", "/v1/user/tenant_info", { authorization: owner.token });
    expect(info.body.data.parser_ids).toMatch(/^naive:General,/);
    expect(info.body.data.parser_ids.split(",")).toEqual(expect.arrayContaining(["qa:Q&A", "knowledge_graph:Knowledge Graph", "tag:Tag"]));
  });
});

describe("another tenant", () => {
  it("gets RAGFlow's ownership errors for every document endpoint and changes nothing", async () => {
    const datasetId = await createDataset(server, owner);
    const [id] = await uploadDocuments(server, owner, datasetId, [{ name: "secret.txt", data: TXT }]);
    const as = (method: string, p: string, body?: unknown) => server.rest(method, p, { token: stranger.key, body });
    expect((await listDocuments(datasetId, "", stranger)).body).toEqual({ code: 102, message: `You don't own the dataset ${datasetId}. ` });
    expect((await upload(datasetId, [{ name: "intruder.txt", data: "x" }], stranger)).body).toEqual({ code: 100, message: `LookupError("Can't find the dataset with ID ${datasetId}!")`, data: null });
    expect((await as("GET", `${documentsPath(datasetId)}/${id}`)).body).toEqual({ code: 102, message: `You do not own the dataset ${datasetId}.` });
    expect((await as("PUT", `${documentsPath(datasetId)}/${id}`, { name: "stolen.txt" })).body).toEqual({ code: 102, message: "You don't own the dataset." });
    expect((await as("DELETE", documentsPath(datasetId), { ids: [id] })).body).toEqual({ code: 102, message: `You don't own the dataset ${datasetId}. ` });
    expect((await as("DELETE", documentsPath(datasetId))).body).toEqual({ code: 102, message: `You don't own the dataset ${datasetId}. ` });
    expect((await as("POST", `/api/v1/datasets/${datasetId}/chunks`, { document_ids: [id] })).body).toEqual({ code: 102, message: `You don't own the dataset ${datasetId}.` });
    expect((await as("DELETE", `/api/v1/datasets/${datasetId}/chunks`, { document_ids: [id] })).body).toEqual({ code: 102, message: `You don't own the dataset ${datasetId}.` });
    // The stranger's own dataset does not open the first tenant's document either.
    const own = await createDataset(server, stranger);
    expect((await as("PUT", `${documentsPath(own)}/${id}`, { name: "stolen.txt" })).body).toEqual({ code: 102, message: "The dataset doesn't own the document." });
    const [doc] = (await listDocuments(datasetId)).body.data.docs;
    expect(doc).toMatchObject({ id, name: "secret.txt", run: "UNSTART" });
  });
});
