import { sharedTestServer, type HttpTestServer } from "../../testing/app";
import { apiUser, createDataset, uploadDocuments, type ApiUser } from "../../testing/rest-support";

/** Document metadata over the REST facade (contract §2.8, §3.3, §3.5 and the web route of §13 row 8). */

let server: HttpTestServer;
let owner: ApiUser;
let stranger: ApiUser;
let datasetId: string;
let ids: string[];

const metadataPath = (what: "summary" | "update", dataset = datasetId) => `/api/v1/datasets/${dataset}/metadata/${what}`;
const summary = (query = "", user = owner) => server.rest("GET", `${metadataPath("summary")}${query}`, { token: user.key });
const change = (body: unknown, user = owner, dataset = datasetId) => server.rest("POST", metadataPath("update", dataset), { token: user.key, body });
const setMeta = (id: string, meta: unknown) => server.rest("PUT", `/api/v1/datasets/${datasetId}/documents/${id}`, { token: owner.key, body: { meta_fields: meta } });
const listDocuments = (query = "") => server.rest("GET", `/api/v1/datasets/${datasetId}/documents${query}`, { token: owner.key });
const metaOf = async () => Object.fromEntries((await listDocuments("?page_size=100")).body.data.docs.map((d: { id: string; meta_fields: unknown }) => [d.id, d.meta_fields]));
const condition = (value: unknown) => `?metadata_condition=${encodeURIComponent(JSON.stringify(value))}`;

beforeAll(async () => {
  server = await sharedTestServer();
  [owner, stranger] = [await apiUser(server), await apiUser(server)];
  datasetId = await createDataset(server, owner);
  ids = await uploadDocuments(server, owner, datasetId, [
    { name: "zhuge.txt", data: "Zhuge Liang" },
    { name: "cao.txt", data: "Cao Cao" },
    { name: "blank.txt", data: "no metadata" },
  ]);
}, 60_000);
afterAll(() => server?.close());

beforeEach(async () => {
  await setMeta(ids[0], { character: "Zhuge Liang", era: "Three Kingdoms", tags: ["strategist", "chancellor"], born: 181 });
  await setMeta(ids[1], { character: "Cao Cao", era: "Late Eastern Han", tags: ["chancellor"] });
  await setMeta(ids[2], {});
});

describe("the metadata summary", () => {
  it("counts each key's values over the dataset's documents, most frequent first, with the key's type", async () => {
    const answered = await summary();
    expect(answered.body).toEqual({
      code: 0,
      data: {
        summary: {
          character: { type: "string", values: [["Zhuge Liang", 1], ["Cao Cao", 1]] },
          era: { type: "string", values: [["Three Kingdoms", 1], ["Late Eastern Han", 1]] },
          tags: { type: "list", values: [["chancellor", 2], ["strategist", 1]] },
          born: { type: "number", values: [["181", 1]] },
        },
      },
    });
  });

  it("keeps to the documents asked for", async () => {
    expect((await summary(`?doc_ids=${ids[1]}`)).body.data.summary).toEqual({
      character: { type: "string", values: [["Cao Cao", 1]] },
      era: { type: "string", values: [["Late Eastern Han", 1]] },
      tags: { type: "list", values: [["chancellor", 1]] },
    });
  });

  it("refuses a dataset the key's tenant cannot use, with RAGFlow's trailing space", async () => {
    expect((await summary("", stranger)).body).toEqual({ code: 102, message: `You don't own the dataset ${datasetId}. ` });
  });
});

describe("changing metadata of many documents", () => {
  it.each([
    [{ selector: "x" }, "selector must be an object."],
    [{ updates: 5 }, "updates and deletes must be lists."],
    [{ updates: { key: "a" } }, "updates and deletes must be lists."],
    [{ deletes: "era" }, "updates and deletes must be lists."],
    [{ selector: { metadata_condition: "era" } }, "metadata_condition must be an object."],
    [{ selector: { document_ids: "x" } }, "document_ids must be a list."],
    [{ updates: [{ key: "era" }] }, "Each update requires key and value."],
    [{ updates: [{ key: "", value: 1 }] }, "Each update requires key and value."],
    [{ updates: ["era"] }, "Each update requires key and value."],
    [{ deletes: [{ value: "x" }] }, "Each delete requires key."],
  ])("refuses %j with RAGFlow's message", async (body, message) => {
    expect((await change(body)).body).toEqual({ code: 102, message });
  });

  it("refuses documents of another dataset, and a dataset the key's tenant cannot use", async () => {
    expect((await change({ selector: { document_ids: [ids[0], "elsewhere"] }, updates: [{ key: "a", value: 1 }] })).body).toEqual({
      code: 102,
      message: `These documents do not belong to dataset ${datasetId}: elsewhere`,
    });
    expect((await change({ updates: [{ key: "a", value: 1 }] }, stranger)).body).toEqual({ code: 102, message: `You don't own the dataset ${datasetId}. ` });
  });

  it("without a selector, changes every document of the dataset", async () => {
    expect((await change({ updates: [{ key: "source", value: "history" }] })).body).toEqual({ code: 0, data: { updated: 3, matched_docs: 3 } });
    expect(Object.values(await metaOf()).every((meta) => (meta as Record<string, unknown>).source === "history")).toBe(true);
  });

  it("narrows the listed documents by the condition, appends to lists, replaces matched values and deletes", async () => {
    const answered = await change({
      selector: { document_ids: [ids[0], ids[1]], metadata_condition: { conditions: [{ name: "tags", comparison_operator: "contains", value: "strategist" }] } },
      updates: [
        { key: "tags", value: "author" },
        { key: "era", value: "Shu Han", match: "Three Kingdoms" },
        { key: "character", value: "nobody", match: "someone else" },
      ],
      deletes: [{ key: "born" }, { key: "tags", value: "chancellor" }],
    });
    expect(answered.body).toEqual({ code: 0, data: { updated: 1, matched_docs: 1 } });
    const meta = await metaOf();
    expect(meta[ids[0]]).toEqual({ character: "Zhuge Liang", era: "Shu Han", tags: ["strategist", "author"] });
    expect(meta[ids[1]]).toEqual({ character: "Cao Cao", era: "Late Eastern Han", tags: ["chancellor"] });
  });

  it("answers a condition that no document meets with nothing matched", async () => {
    const body = { selector: { metadata_condition: { conditions: [{ name: "era", comparison_operator: "is", value: "Song" }] } }, updates: [{ key: "a", value: 1 }] };
    expect((await change(body)).body).toEqual({ code: 0, data: { updated: 0, matched_docs: 0 } });
  });
});

describe("listing documents by metadata", () => {
  it("shows each document's meta_fields and keeps to those meeting metadata_condition", async () => {
    const listed = await listDocuments(condition({ logic: "or", conditions: [{ name: "era", comparison_operator: "start with", value: "three" }, { name: "character", comparison_operator: "is", value: "cao cao" }] }));
    expect(listed.body.data.total).toBe(2);
    expect(listed.body.data.docs.map((d: { meta_fields: { character: string } }) => d.meta_fields.character).sort()).toEqual(["Cao Cao", "Zhuge Liang"]);
    expect((await listDocuments(condition({ conditions: [{ name: "born", comparison_operator: ">", value: "100" }] }))).body.data.docs.map((d: { id: string }) => d.id)).toEqual([ids[0]]);
  });

  it("answers a condition no document meets with an empty list, and refuses one that is not an object", async () => {
    expect((await listDocuments(condition({ conditions: [{ name: "missing", comparison_operator: "empty", value: "" }] }))).body).toEqual({ code: 0, data: { total: 0, docs: [] } });
    expect((await listDocuments("?metadata_condition=%7Bnot")).body).toEqual({ code: 102, message: "metadata_condition must be valid JSON." });
    expect((await listDocuments(condition(["era"]))).body).toEqual({ code: 102, message: "metadata_condition must be an object." });
  });
});

describe("the metadata setting of a dataset", () => {
  const schema = { type: "object", properties: { character: { description: "Historical figure name", type: "string" } } };
  const setting = (body: unknown, user = owner) => server.rest("POST", "/v1/kb/update_metadata_setting", { authorization: `Bearer ${user.key}`, body });

  it("keeps the schema in the dataset's parser_config and answers the dataset row, with an API key", async () => {
    const answered = await setting({ kb_id: datasetId, metadata: schema, enable_metadata: false });
    expect(answered.body).toMatchObject({ code: 0, message: "success", data: { id: datasetId, parser_id: "naive", parser_config: { metadata: schema, enable_metadata: false } } });
    const [dataset] = (await server.rest("GET", `/api/v1/datasets?id=${datasetId}`, { token: owner.key })).body.data;
    expect(dataset.parser_config).toMatchObject({ metadata: schema, enable_metadata: false, chunk_token_num: 512 });
    expect((await setting({ kb_id: datasetId, metadata: schema })).body.data.parser_config.enable_metadata).toBe(true);
  });

  it("refuses missing arguments, and an unknown or foreign dataset as RAGFlow's database error", async () => {
    expect((await setting({ kb_id: datasetId })).body).toEqual({ code: 101, message: "required argument are missing: metadata; ", data: null });
    expect((await setting({ kb_id: "unknown", metadata: schema })).body).toEqual({ code: 102, message: "Database error (Knowledgebase rename)!" });
    expect((await setting({ kb_id: datasetId, metadata: schema }, stranger)).body).toEqual({ code: 102, message: "Database error (Knowledgebase rename)!" });
  });
});
