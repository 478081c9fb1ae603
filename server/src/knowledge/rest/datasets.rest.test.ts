import { sharedTestServer, type HttpTestServer } from "../../testing/app";
import { DEFAULT_RAPTOR_PROMPT } from "../parser-config";
import { apiUser, createDataset, rawRequest, type ApiUser } from "../../testing/rest-support";

let server: HttpTestServer;
let owner: ApiUser;
let stranger: ApiUser;

beforeAll(async () => {
  server = await sharedTestServer();
  [owner, stranger] = [await apiUser(server), await apiUser(server)];
});
afterAll(() => server.close());

const create = (body: unknown, user = owner) => server.rest("POST", "/api/v1/datasets", { token: user.key, body });
const update = (id: string, body: unknown, user = owner) => server.rest("PUT", `/api/v1/datasets/${id}`, { token: user.key, body });
const list = (query = "", user = owner) => server.rest("GET", `/api/v1/datasets${query}`, { token: user.key });
const remove = (body: unknown, user = owner) => server.rest("DELETE", "/api/v1/datasets", { token: user.key, body });

const NAIVE_DEFAULT = {
  layout_recognize: "DeepDOC",
  chunk_token_num: 512,
  delimiter: "\n",
  auto_keywords: 0,
  auto_questions: 0,
  html4excel: false,
  image_context_size: 0,
  table_context_size: 0,
  topn_tags: 3,
  llm_id: "cairn-extractive@Builtin",
  raptor: { use_raptor: true, prompt: DEFAULT_RAPTOR_PROMPT, max_token: 256, threshold: 0.1, max_cluster: 64, random_seed: 0 },
  graphrag: { use_graphrag: true, entity_types: ["organization", "person", "geo", "event", "category"], method: "light" },
};

describe("creating a dataset", () => {
  it("answers the dataset object with RAGFlow's defaults and no message key", async () => {
    const created = await create({ name: "defaults" });
    expect(Object.keys(created.body).sort()).toEqual(["code", "data"]);
    expect(created.body.data).toMatchObject({
      name: "defaults",
      tenant_id: owner.tenantId,
      created_by: owner.tenantId,
      avatar: null,
      description: null,
      language: "English",
      embedding_model: "BAAI/bge-small-en-v1.5@Builtin",
      permission: "me",
      chunk_method: "naive",
      pagerank: 0,
      document_count: 0,
      chunk_count: 0,
      token_num: 0,
      similarity_threshold: 0.2,
      vector_similarity_weight: 0.3,
      status: "1",
    });
    expect(created.body.data.id).toMatch(/^[0-9a-f]{12}1[0-9a-f]{19}$/);
    expect(created.body.data.create_date).toMatch(/GMT$/);
    expect(typeof created.body.data.create_time).toBe("number");
  });

  it("stores the naive parser_config exactly as §2.6 shows, for no, {} and null parser_config", async () => {
    for (const parser_config of [undefined, {}, null]) {
      const created = await create({ name: "config", ...(parser_config === undefined ? {} : { parser_config }) });
      expect(created.body.data.parser_config).toEqual(NAIVE_DEFAULT);
    }
  });

  it("a supplied parser_config is populated with the schema's defaults, which turn RAPTOR and GraphRAG off", async () => {
    const created = await create({ name: "tuned", parser_config: { chunk_token_num: 1024, raptor: { max_token: 100 } } });
    expect(created.body.data.parser_config).toMatchObject({ chunk_token_num: 1024, topn_tags: 1, delimiter: "\\n", raptor: { use_raptor: false, max_token: 100 }, graphrag: { use_graphrag: false } });
  });

  it("renames a clash case-insensitively with (1), (2)", async () => {
    expect((await create({ name: "Duplicated_name" })).body.data.name).toBe("Duplicated_name");
    expect((await create({ name: "duplicated_name" })).body.data.name).toBe("duplicated_name(1)");
    expect((await create({ name: "DUPLICATED_NAME" })).body.data.name).toBe("DUPLICATED_NAME(2)");
  });

  it.each([
    [{ name: "" }, "Field: <name> - Message: <String should have at least 1 character> - Value: <>"],
    [{ name: " " }, "Field: <name> - Message: <String should have at least 1 character> - Value: < >"],
    [{ name: "a".repeat(129) }, `Field: <name> - Message: <String should have at most 128 characters> - Value: <${"a".repeat(125)}...>`],
    [{ name: 0 }, "Field: <name> - Message: <Input should be a valid string> - Value: <0>"],
    [{ name: null }, "Field: <name> - Message: <Input should be a valid string> - Value: <None>"],
    [{}, "Field: <name> - Message: <Field required> - Value: <{}>"],
    [{ name: "x", permission: "ME" }, "Field: <permission> - Message: <Input should be 'me' or 'team'> - Value: <ME>"],
    [
      { name: "x", chunk_method: "knowledge_graph" },
      "Field: <chunk_method> - Message: <Input should be 'naive', 'book', 'email', 'laws', 'manual', 'one', 'paper', 'picture', 'presentation', 'qa', 'table' or 'tag'> - Value: <knowledge_graph>",
    ],
    [{ name: "x", language: "English" }, "Field: <language> - Message: <Extra inputs are not permitted> - Value: <English>"],
    [{ name: "x", pagerank: 1 }, "Field: <pagerank> - Message: <Extra inputs are not permitted> - Value: <1>"],
    [{ name: "x", avatar: "no comma" }, "Field: <avatar> - Message: <Missing MIME prefix. Expected format: data:<mime>;base64,<data>> - Value: <no comma>"],
    [{ name: "x", avatar: "image/png;base64,AAA" }, "Field: <avatar> - Message: <Invalid MIME prefix format. Must start with 'data:'> - Value: <image/png;base64,AAA>"],
    [{ name: "x", avatar: "data:image/gif;base64,AAA" }, "Field: <avatar> - Message: <Unsupported MIME type. Allowed: ['image/jpeg', 'image/png']> - Value: <data:image/gif;base64,AAA>"],
    [{ name: "x", embedding_model: " " }, "Field: <embedding_model> - Message: <Embedding model identifier must follow <model_name>@<provider> format> - Value: <>"],
    [{ name: "x", embedding_model: "@Builtin" }, "Field: <embedding_model> - Message: <Both model_name and provider must be non-empty strings> - Value: <@Builtin>"],
    [{ name: "x", parser_config: { auto_keywords: -1 } }, "Field: <parser_config.auto_keywords> - Message: <Input should be greater than or equal to 0> - Value: <-1>"],
    [{ name: "x", parser_config: { auto_keywords: 3.14 } }, "Field: <parser_config.auto_keywords> - Message: <Input should be a valid integer> - Value: <3.14>"],
    [{ name: "x", parser_config: { chunk_token_num: "1" } }, "Field: <parser_config.chunk_token_num> - Message: <Input should be a valid integer> - Value: <1>"],
    [{ name: "x", parser_config: { unknown: 1 } }, "Field: <parser_config.unknown> - Message: <Extra inputs are not permitted> - Value: <1>"],
    [{ name: "x", parser_config: { graphrag: { method: null } } }, "Field: <parser_config.graphrag.method> - Message: <Input should be 'light' or 'general'> - Value: <None>"],
    [{ name: "x", parser_config: { pages: [["a"]] } }, "Field: <parser_config.pages.0.0> - Message: <Input should be a valid integer> - Value: <a>"],
    [{ name: "x", parser_config: { delimiter: "" } }, "Field: <parser_config.delimiter> - Message: <String should have at least 1 character> - Value: <>"],
  ])("refuses %j with code 101 and pydantic's words", async (body, message) => {
    expect((await create(body)).body).toEqual({ code: 101, message });
  });

  it("names every violation, one per line", async () => {
    const refused = await create({ name: "", permission: "x", tenant_id: "t" });
    expect(refused.body.message.split("\n")).toEqual([
      "Field: <name> - Message: <String should have at least 1 character> - Value: <>",
      "Field: <permission> - Message: <Input should be 'me' or 'team'> - Value: <x>",
      "Field: <tenant_id> - Message: <Extra inputs are not permitted> - Value: <t>",
    ]);
  });

  it("refuses a parser_config over 65,535 characters of JSON", async () => {
    const refused = await create({ name: "x", parser_config: { delimiter: "a".repeat(65536) } });
    expect(refused.body.code).toBe(101);
    expect(refused.body.message).toContain("Parser config exceeds size limit (max 65,535 characters). Current size: ");
  });

  it("refuses an unknown or unconfigured embedding model", async () => {
    expect((await create({ name: "x", embedding_model: "unknown@ZHIPU-AI" })).body).toEqual({ code: 101, message: "Unsupported model: <unknown@ZHIPU-AI>" });
    expect((await create({ name: "x", embedding_model: "embedding-3@unknown" })).body).toEqual({ code: 101, message: "Unsupported model: <embedding-3@unknown>" });
    expect((await create({ name: "x", embedding_model: "text-embedding-3-small@OpenAI" })).body).toEqual({ code: 101, message: "Unauthorized model: <text-embedding-3-small@OpenAI>" });
    expect((await create({ name: "x", embedding_model: "cairn-embedding@Builtin" })).body.data.embedding_model).toBe("cairn-embedding@Builtin");
  });

  it("checks the request itself first: JSON content type, parseable, an object", async () => {
    const path = "/api/v1/datasets";
    expect((await rawRequest(server, "POST", path, owner.key, "text/xml", "<a/>")).body).toEqual({ code: 101, message: "Unsupported content type: Expected application/json, got text/xml" });
    expect((await rawRequest(server, "POST", path, owner.key, "application/json", "{a")).body).toEqual({ code: 101, message: "Malformed JSON syntax: Missing commas/brackets or invalid encoding" });
    expect((await rawRequest(server, "POST", path, owner.key, "application/json", "")).body).toEqual({ code: 101, message: "Malformed JSON syntax: Missing commas/brackets or invalid encoding" });
    expect((await rawRequest(server, "POST", path, owner.key, "application/json", '"a"')).body).toEqual({ code: 101, message: "Invalid request payload: expected object, got str" });
    expect((await rawRequest(server, "POST", path, owner.key, "application/json", "[1]")).body).toEqual({ code: 101, message: "Invalid request payload: expected object, got list" });
    expect((await rawRequest(server, "POST", path, owner.key, "application/json", "null")).body).toEqual({ code: 101, message: "Field: <name> - Message: <Field required> - Value: <{}>" });
  });

  it("refuses a name holding U+0000, which nothing can store, with an argument error, and creates nothing", async () => {
    const before = (await list()).body.data.length;
    expect((await create({ name: "z\u0000" })).body).toEqual({ code: 101, message: "Text cannot contain the NUL character (U+0000). Remove it and try again." });
    expect((await list()).body.data).toHaveLength(before);
  });

  it("asks for an API key", async () => {
    expect((await server.rest("POST", "/api/v1/datasets", { body: { name: "x" } })).body).toEqual({ code: 0, message: "`Authorization` can't be empty", data: false });
  });
});

describe("updating a dataset", () => {
  it("changes only the fields sent", async () => {
    const id = await createDataset(server, owner, { name: "before", description: "kept", avatar: "data:image/png;base64,AAA" });
    const updated = await update(id, { name: "after", pagerank: 7 });
    expect(updated.body.code).toBe(0);
    expect(updated.body.data).toMatchObject({ name: "after", pagerank: 7, description: "kept", avatar: "data:image/png;base64,AAA", permission: "me", chunk_method: "naive" });
    expect(updated.body.data.parser_config).toEqual(NAIVE_DEFAULT);
    expect((await update(id, { avatar: null, description: null })).body.data).toMatchObject({ avatar: null, description: null });
  });

  it("switching the chunk method replaces parser_config with the method's defaults, without llm_id", async () => {
    const id = await createDataset(server, owner);
    expect((await update(id, { chunk_method: "qa" })).body.data.parser_config).toEqual({ raptor: { use_raptor: false }, graphrag: { use_graphrag: false }, image_context_size: 0, table_context_size: 0 });
  });

  it("deep-merges a parser_config and ignores {} and null", async () => {
    const id = await createDataset(server, owner);
    expect((await update(id, { parser_config: { raptor: { max_token: 100 } } })).body.data.parser_config.raptor).toMatchObject({ use_raptor: true, max_token: 100 });
    expect((await update(id, { parser_config: {} })).body.data.parser_config.raptor.max_token).toBe(100);
  });

  it("accepts the context sizes RAGFlow stores in every parser_config, so that a config read back can be sent back", async () => {
    const id = await createDataset(server, owner, { parser_config: { image_context_size: 0, table_context_size: 8 } });
    const [created] = (await server.rest("GET", `/api/v1/datasets?id=${id}`, { token: owner.key })).body.data;
    expect(created.parser_config).toMatchObject({ image_context_size: 0, table_context_size: 8 });
    const { llm_id: _chatModel, ...readBack } = created.parser_config;
    expect((await update(id, { parser_config: { ...readBack, image_context_size: 32 } })).body.data.parser_config).toMatchObject({ image_context_size: 32, table_context_size: 8 });
    expect((await update(id, { parser_config: { image_context_size: -1 } })).body).toEqual({
      code: 101,
      message: "Field: <parser_config.image_context_size> - Message: <Input should be greater than or equal to 0> - Value: <-1>",
    });
  });

  it("refuses a name another dataset has, in any case, but allows a case variant of its own", async () => {
    await createDataset(server, owner, { name: "dataset_1" });
    const id = await createDataset(server, owner, { name: "dataset_2" });
    expect((await update(id, { name: "dataset_1" })).body).toEqual({ code: 102, message: "Dataset name 'dataset_1' already exists" });
    expect((await update(id, { name: "DATASET_1" })).body).toEqual({ code: 102, message: "Dataset name 'DATASET_1' already exists" });
    expect((await update(id, { name: "DATASET_2" })).body.data.name).toBe("DATASET_2");
  });

  it("answers RAGFlow's argument errors", async () => {
    const id = await createDataset(server, owner);
    expect((await update(id, {})).body).toEqual({ code: 101, message: "No properties were modified" });
    expect((await update("not_uuid", { name: "x" })).body).toEqual({ code: 101, message: "Field: <dataset_id> - Message: <Invalid UUID1 format> - Value: <not_uuid>" });
    expect((await update("1bd7e2c8a3f54f1e9b3b2f5c7a1d4e6f", { name: "x" })).body.message).toContain("Invalid UUID1 format");
    expect((await update(id, { pagerank: 101 })).body).toEqual({ code: 101, message: "Field: <pagerank> - Message: <Input should be less than or equal to 100> - Value: <101>" });
    expect((await update(id, { pagerank: null })).body.message).toContain("Input should be a valid integer");
    expect((await update(id, { chunk_method: null })).body.message).toContain("Input should be 'naive', 'book'");
    expect((await update(id, { id: "x" })).body.message).toBe("Field: <id> - Message: <Extra inputs are not permitted> - Value: <x>");
    expect((await update(id, { embedding_model: "" })).body.message).toContain("Embedding model identifier must follow <model_name>@<provider> format");
  });

  it("keeps the embedding model when null is sent", async () => {
    const id = await createDataset(server, owner);
    expect((await update(id, { embedding_model: null, name: "kept-model" })).body.data.embedding_model).toBe("BAAI/bge-small-en-v1.5@Builtin");
  });
});

describe("listing datasets", () => {
  let listUser: ApiUser;
  beforeAll(async () => {
    listUser = await apiUser(server);
    for (const name of ["one", "two", "three"]) await createDataset(server, listUser, { name });
  });

  it("pages newest first with the total beside the data", async () => {
    const all = await list("", listUser);
    expect(Object.keys(all.body).sort()).toEqual(["code", "data", "total_datasets"]);
    expect(all.body.data.map((d: { name: string }) => d.name)).toEqual(["three", "two", "one"]);
    const second = await list("?page=2&page_size=1&orderby=create_time&desc=False", listUser);
    expect(second.body).toMatchObject({ code: 0, total_datasets: 3 });
    expect(second.body.data.map((d: { name: string }) => d.name)).toEqual(["two"]);
    expect((await list("?page=9", listUser)).body).toEqual({ code: 0, data: [], total_datasets: 3 });
  });

  it("filters by exact name and id", async () => {
    const [two] = (await list("?name=two", listUser)).body.data;
    expect(two.name).toBe("two");
    expect((await list(`?id=${two.id}`, listUser)).body.data.map((d: { name: string }) => d.name)).toEqual(["two"]);
    expect((await list(`?id=${two.id}&name=one`, listUser)).body).toEqual({ code: 0, data: [], total_datasets: 0 });
    expect((await list("?name=", listUser)).body.total_datasets).toBe(3);
  });

  it.each([
    ["?page=0", "Field: <page> - Message: <Input should be greater than or equal to 1> - Value: <0>"],
    ["?page_size=0", "Field: <page_size> - Message: <Input should be greater than or equal to 1> - Value: <0>"],
    ["?page=a", "Field: <page> - Message: <Input should be a valid integer, unable to parse string as an integer> - Value: <a>"],
    ["?orderby=CREATE_TIME", "Field: <orderby> - Message: <Input should be 'create_time' or 'update_time'> - Value: <CREATE_TIME>"],
    ["?desc=maybe", "Field: <desc> - Message: <Input should be a valid boolean, unable to interpret input> - Value: <maybe>"],
    ["?id=", "Field: <id> - Message: <Invalid UUID1 format> - Value: <>"],
    ["?unknown=1", "Field: <unknown> - Message: <Extra inputs are not permitted> - Value: <1>"],
  ])("refuses %s with code 101", async (query, message) => {
    expect((await list(query, listUser)).body).toEqual({ code: 101, message });
  });

  it("an unknown id or name is a permission error", async () => {
    const unknown = "0f8a2c4e3b1d11f0a5c4e2b3d4f5a6b7";
    expect((await list(`?id=${unknown}`, listUser)).body).toEqual({ code: 108, message: `User '${listUser.tenantId}' lacks permission for dataset '${unknown}'` });
    expect((await list("?name=nobody", listUser)).body).toEqual({ code: 108, message: `User '${listUser.tenantId}' lacks permission for dataset 'nobody'` });
  });
});

describe("deleting datasets", () => {
  it("deletes the listed ones, nothing for [], all for null", async () => {
    const user = await apiUser(server);
    const [a, b, c] = [await createDataset(server, user), await createDataset(server, user), await createDataset(server, user)];
    expect((await remove({ ids: [a] }, user)).body).toEqual({ code: 0 });
    expect((await remove({ ids: [] }, user)).body).toEqual({ code: 0 });
    expect((await list("", user)).body.total_datasets).toBe(2);
    expect((await remove({ ids: null }, user)).body).toEqual({ code: 0 });
    expect((await list("", user)).body.total_datasets).toBe(0);
    expect((await remove({ ids: [b, c] }, user)).body).toEqual({ code: 108, message: `User '${user.tenantId}' lacks permission for datasets: '${b}, ${c}'` });
  });

  it("refuses a missing key, bad ids and duplicates with code 101", async () => {
    const id = await createDataset(server, owner);
    expect((await remove({})).body).toEqual({ code: 101, message: "Field: <ids> - Message: <Field required> - Value: <{}>" });
    expect((await remove({ ids: ["not_uuid"] })).body).toEqual({ code: 101, message: "Field: <ids> - Message: <Invalid UUID1 format> - Value: <['not_uuid']>" });
    expect((await remove({ ids: [id, id] })).body).toEqual({ code: 101, message: `Field: <ids> - Message: <Duplicate ids: '${id}'> - Value: <['${id}', '${id}']>` });
    expect((await rawRequest(server, "DELETE", "/api/v1/datasets", owner.key, "application/json", "")).body.message).toBe("Malformed JSON syntax: Missing commas/brackets or invalid encoding");
  });
});

describe("another tenant", () => {
  it("cannot see, change or delete the datasets of the first, and nothing changes", async () => {
    const id = await createDataset(server, owner, { name: "private-one" });
    expect((await list("", stranger)).body.data.map((d: { id: string }) => d.id)).not.toContain(id);
    expect((await list(`?id=${id}`, stranger)).body).toEqual({ code: 108, message: `User '${stranger.tenantId}' lacks permission for dataset '${id}'` });
    expect((await update(id, { name: "taken over" }, stranger)).body).toEqual({ code: 108, message: `User '${stranger.tenantId}' lacks permission for dataset '${id}'` });
    expect((await remove({ ids: [id] }, stranger)).body).toEqual({ code: 108, message: `User '${stranger.tenantId}' lacks permission for datasets: '${id}'` });
    expect((await remove({ ids: null }, stranger)).body).toEqual({ code: 0 });
    expect((await list(`?id=${id}`)).body.data[0].name).toBe("private-one");
  });
});
