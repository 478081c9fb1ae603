import { apiUser, createDataset, rawRequest, type ApiUser } from "../../testing/rest-support";
import { startTestServer, type TestServer } from "../../testing/app";
import { RAGFLOW_DEFAULT_SYSTEM_PROMPT } from "../prompt-defaults";

let server: TestServer;
let user: ApiUser;
let other: ApiUser;
let dataset: string;

beforeAll(async () => {
  server = await startTestServer();
  user = await apiUser(server);
  other = await apiUser(server);
  dataset = await parsedDataset(user);
});
afterAll(() => server.close());

/** A dataset counted as holding parsed chunks, which is all a chat asks of it (parsing is tested with ingestion). */
async function parsedDataset(owner: ApiUser, body: Record<string, unknown> = {}, chunks = 4): Promise<string> {
  const id = await createDataset(server, owner, body);
  await server.platform.db.query(`UPDATE knowledge_base SET chunk_count = $2 WHERE id = $1`, [id, chunks]);
  return id;
}

const unique = () => `chat-${Math.random().toString(36).slice(2)}`;

const create = (body: unknown, key = user.key) => server.rest("POST", "/api/v1/chats", { token: key, body });
const update = (id: string, body: unknown, key = user.key) => server.rest("PUT", `/api/v1/chats/${id}`, { token: key, body });
const remove = (body: unknown, key = user.key) => server.rest("DELETE", "/api/v1/chats", { token: key, body });
const list = (query = "", key = user.key) => server.rest("GET", `/api/v1/chats${query}`, { token: key });

async function createdChat(body: Record<string, unknown> = {}, key = user.key): Promise<string> {
  const created = await create({ name: unique(), ...(key === user.key ? { dataset_ids: [dataset] } : {}), ...body }, key);
  if (created.body.code !== 0) throw new Error(JSON.stringify(created.body));
  return created.body.data.id;
}

describe("POST /api/v1/chats", () => {
  it("answers the authentication failures as RAGFlow does", async () => {
    expect((await server.rest("POST", "/api/v1/chats", { body: { name: "x" } })).body).toEqual({ code: 0, message: "`Authorization` can't be empty", data: false });
    expect((await server.rest("POST", "/api/v1/chats", { token: "ragflow-nope", body: { name: "x" } })).body).toEqual({ code: 109, message: "Authentication error: API key is invalid!", data: false });
  });

  it("creates a chat with RAGFlow's defaults and field names", async () => {
    const name = unique();
    const { status, body } = await create({ name, dataset_ids: [dataset] });
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["code", "data"]);
    const chat = body.data;
    expect(chat).toMatchObject({
      name,
      tenant_id: user.tenantId,
      description: "A helpful Assistant",
      avatar: "",
      language: "English",
      llm: { temperature: 0.1, top_p: 0.3, presence_penalty: 0.4, frequency_penalty: 0.7, max_tokens: 512, model_name: "cairn-extractive@Builtin" },
      prompt: {
        prompt: RAGFLOW_DEFAULT_SYSTEM_PROMPT,
        opener: "Hi! I'm your assistant. What can I do for you?",
        variables: [{ key: "knowledge", optional: false }],
        empty_response: "Sorry! No relevant content was found in the knowledge base!",
        show_quote: true,
        tts: false,
        refine_multiturn: true,
        similarity_threshold: 0.2,
        keywords_similarity_weight: 0.7,
        top_n: 6,
        rerank_model: "",
      },
      prompt_type: "simple",
      meta_data_filter: {},
      do_refer: "1",
      status: "1",
      dataset_ids: [dataset],
    });
    expect(chat.id).toMatch(/^[0-9a-f]{32}$/);
    expect(chat).not.toHaveProperty("top_k");
    expect(chat.create_date).toMatch(/GMT$/);
    expect(typeof chat.create_time).toBe("number");
    expect(chat.prompt.prompt).toContain('"The answer you are looking for is not found in the dataset!"');
  });

  it("keeps what is given: empty texts, only the given llm keys, the keyword weight as 1 − the stored vector weight", async () => {
    const { body } = await create({
      name: unique(),
      dataset_ids: [dataset],
      avatar: "aGVsbG8=",
      llm: { temperature: 0.5, model_name: "cairn-extractive" },
      prompt: { opener: "", empty_response: "", keywords_similarity_weight: 0, top_n: 3, show_quote: false, custom: "kept" },
    });
    expect(body.code).toBe(0);
    expect(body.data.avatar).toBe("aGVsbG8=");
    expect(body.data.llm).toEqual({ temperature: 0.5, model_name: "cairn-extractive" });
    expect(body.data.prompt).toMatchObject({ opener: "", empty_response: "", keywords_similarity_weight: 1, top_n: 3, show_quote: false, custom: "kept" });
    const [row] = await server.platform.db.query(`SELECT vector_similarity_weight, prompt_config FROM chat_assistant WHERE id = $1`, [body.data.id]);
    expect(row.vector_similarity_weight).toBe(0);
    expect(row.prompt_config).toMatchObject({ prologue: "", quote: false });
    const weightOne = await create({ name: unique(), dataset_ids: [dataset], prompt: { keywords_similarity_weight: 1 } });
    expect(weightOne.body.data.prompt.keywords_similarity_weight).toBe(0);
  });

  it("takes RAGFlow's internal prompt_config and column names at the top level, with defaults for the missing keys", async () => {
    const { body } = await create({ name: unique(), dataset_ids: [dataset], prompt_config: { system: "Answer from {knowledge}.", quote: false }, top_n: 9, top_k: 256, similarity_threshold: 0.1 });
    expect(body.code).toBe(0);
    expect(body.data.prompt).toMatchObject({ prompt: "Answer from {knowledge}.", show_quote: false, opener: "Hi! I'm your assistant. What can I do for you?", top_n: 9, similarity_threshold: 0.1 });
    const listed = await list(`?id=${body.data.id}`);
    expect(listed.body.data[0].top_k).toBe(256);
  });

  it("checks in RAGFlow's order with its messages", async () => {
    const unparsed = await parsedDataset(user, {}, 0);
    const otherEmbedding = await parsedDataset(user, { embedding_model: "cairn-embedding@Builtin" });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ name: "x", dataset_ids: ["invalid_dataset_id"] }, 102, "You don't own the dataset invalid_dataset_id"],
      [{ name: "x", dataset_ids: "invalid" }, 102, "You don't own the dataset i"],
      [{ name: "x", dataset_ids: [dataset, unparsed] }, 102, `The dataset ${unparsed} doesn't own parsed file`],
      [{ name: "x", dataset_ids: [dataset, otherEmbedding] }, 109, 'Datasets use different embedding models."'],
      [{ name: "x", dataset_ids: [dataset], llm: { model_name: "unknown" } }, 102, "`model_name` unknown doesn't exist"],
      [{ name: "x", dataset_ids: [dataset], prompt: { rerank_model: "unknown" } }, 102, "`rerank_model` unknown doesn't exist"],
      [{ dataset_ids: [dataset] }, 102, "`name` is required."],
      [{ name: "", dataset_ids: [dataset] }, 102, "`name` is required."],
      [{ name: "x", dataset_ids: [dataset], tenant_id: "abc" }, 102, "`tenant_id` must not be provided."],
      [{ name: "x", dataset_ids: [dataset], prompt: { prompt: "Hello World" } }, 102, "Parameter 'knowledge' is not used"],
      [{ name: "x", dataset_ids: [dataset], prompt: { prompt: "Hi {knowledge}", variables: [{ key: "knowledge", optional: false }, { key: "topic", optional: false }] } }, 102, "Parameter 'topic' is not used"],
    ];
    for (const [body, code, message] of cases) {
      expect({ body, answer: (await create(body)).body }).toEqual({ body, answer: { code, message } });
    }
    // Accepted: a bare chat model name, an allow-listed rerank model, no datasets, optional variables.
    const accepted = await create({
      name: unique(),
      llm: { model_name: "cairn-extractive", model_type: "chat" },
      prompt: { rerank_model: "BAAI/bge-reranker-v2-m3", prompt: "Hello World", variables: [{ key: "knowledge", optional: true }] },
    });
    expect(accepted.body).toMatchObject({ code: 0, data: { dataset_ids: [], prompt: { rerank_model: "BAAI/bge-reranker-v2-m3" } } });
  });

  it("refuses a name a live chat of the tenant has, whatever its case, but not another tenant's", async () => {
    const name = unique();
    await createdChat({ name });
    expect((await create({ name, dataset_ids: [dataset] })).body).toEqual({ code: 102, message: "Duplicated chat name in creating chat." });
    expect((await create({ name: name.toUpperCase(), dataset_ids: [dataset] })).body).toEqual({ code: 102, message: "Duplicated chat name in creating chat." });
    expect((await create({ name }, other.key)).body.code).toBe(0);
    expect((await create({ name, dataset_ids: [dataset] }, other.key)).body).toEqual({ code: 102, message: `You don't own the dataset ${dataset}` });
  });
});

describe("PUT /api/v1/chats/{chat_id}", () => {
  it("merges llm and prompt keys into what is stored and answers {code: 0}", async () => {
    const id = await createdChat({ llm: { temperature: 0.2, top_p: 0.4 } });
    const answer = await update(id, { name: "renamed-" + id, dataset_ids: [dataset], llm: { temperature: 0.9 }, prompt: { opener: "Welcome", keywords_similarity_weight: 0.4 }, show_quotation: "0" });
    expect(answer.body).toEqual({ code: 0 });
    const chat = (await list(`?id=${id}`)).body.data[0];
    expect(chat).toMatchObject({ name: "renamed-" + id, do_refer: "0", llm: { temperature: 0.9, top_p: 0.4 }, prompt: { opener: "Welcome", variables: [{ key: "knowledge", optional: false }], keywords_similarity_weight: 0.6 } });
    expect(chat.prompt.prompt).toBe(RAGFLOW_DEFAULT_SYSTEM_PROMPT);
  });

  it("leaves a chat without datasets when the update has none (RAGFlow's quirk)", async () => {
    const id = await createdChat();
    expect((await update(id, { avatar: "new" })).body).toEqual({ code: 0 });
    expect((await list(`?id=${id}`)).body.data[0]).toMatchObject({ avatar: "new", datasets: [] });
  });

  it("checks in RAGFlow's order with its messages", async () => {
    const id = await createdChat();
    const taken = await createdChat();
    const takenName = (await list(`?id=${taken}`)).body.data[0].name as string;
    const cases: [string, unknown, number, string | RegExp][] = [
      ["invalid_chat_id", { name: "x" }, 102, "You do not own the chat"],
      [id, { dataset_ids: ["invalid_dataset_id"] }, 102, "You don't own the dataset invalid_dataset_id"],
      [id, { dataset_ids: "invalid" }, 102, "You don't own the dataset i"],
      [id, { llm: { model_name: "unknown" } }, 102, "`model_name` unknown doesn't exist"],
      [id, { prompt: { rerank_model: "unknown" } }, 102, "`rerank_model` unknown doesn't exist"],
      [id, { name: "" }, 102, "`name` cannot be empty."],
      [id, { name: takenName }, 102, "Duplicated chat name in updating chat."],
      [id, { name: takenName.toUpperCase() }, 102, "Duplicated chat name in updating chat."],
      [id, { prompt: { prompt: "Hello World" } }, 102, "Parameter 'knowledge' is not used"],
      [id, { prompt: {} }, 100, /^ValueError\(/],
      [id, { llm: {} }, 100, /^ValueError\(/],
      [id, { unknown_key: 1 }, 100, /^ValueError\(/],
    ];
    for (const [chat, body, code, message] of cases) {
      const answer = (await update(chat, body)).body;
      expect({ body, code: answer.code }).toEqual({ body, code });
      if (typeof message === "string") expect(answer.message).toBe(message);
      else expect(answer.message).toMatch(message);
    }
    // The chat's own name, in another case, is no duplicate.
    const own = (await list(`?id=${id}`)).body.data[0].name as string;
    expect((await update(id, { name: own.toUpperCase(), dataset_ids: [dataset] })).body).toEqual({ code: 0 });
    expect((await update(id, {}, other.key)).body).toEqual({ code: 102, message: "You do not own the chat" });
  });
});

describe("DELETE /api/v1/chats", () => {
  it("soft-deletes by id, reporting ids that are not live chats of the caller and duplicates", async () => {
    const [a, b, c] = [await createdChat(), await createdChat(), await createdChat()];
    const foreign = await createdChat({}, other.key);
    const partial = await remove({ ids: [a, "invalid_id", foreign] });
    expect(partial.body).toEqual({ code: 0, data: { success_count: 1, errors: ["Assistant(invalid_id) not found.", `Assistant(${foreign}) not found.`] } });
    expect((await remove({ ids: [a] })).body).toEqual({ code: 102, message: `Assistant(${a}) not found.` });
    expect((await remove({ ids: ["\n!?。；！？\"'"] })).body).toEqual({ code: 102, message: "Assistant(\n!?。；！？\"') not found." });
    expect((await remove({ ids: [b, b] })).body).toEqual({ code: 0, data: { success_count: 1, errors: [`Duplicate assistant ids: ${b}`] } });
    const [row] = await server.platform.db.query(`SELECT status FROM chat_assistant WHERE id = $1`, [a]);
    expect(row.status).toBe("0");
    expect((await list(`?id=${a}`)).body).toEqual({ code: 102, message: "The chat doesn't exist" });
    expect((await list(`?id=${c}`)).body.code).toBe(0);
    expect((await list(`?id=${foreign}`, other.key)).body.data).toHaveLength(1);
  });

  it("without ids deletes all of the caller's chats and nobody else's", async () => {
    const fresh = await apiUser(server);
    const kb = await parsedDataset(fresh);
    for (let i = 0; i < 3; i++) await create({ name: unique(), dataset_ids: [kb] }, fresh.key);
    const theirs = await createdChat({}, other.key);
    expect((await remove(undefined, fresh.key)).body).toEqual({ code: 0 });
    expect((await list("", fresh.key)).body).toEqual({ code: 0, data: [] });
    for (let i = 0; i < 2; i++) await create({ name: unique(), dataset_ids: [kb] }, fresh.key);
    expect((await remove({ ids: [] }, fresh.key)).body).toEqual({ code: 0 });
    expect((await list("", fresh.key)).body.data).toEqual([]);
    expect((await list(`?id=${theirs}`, other.key)).body.data).toHaveLength(1);
  });

  it("answers a string body with Python's AttributeError", async () => {
    const answer = await rawRequest(server, "DELETE", "/api/v1/chats", user.key, "application/json", JSON.stringify("not json"));
    expect(answer.body).toEqual({ code: 100, message: "AttributeError(\"'str' object has no attribute 'get'\")", data: null });
  });
});

describe("GET /api/v1/chats", () => {
  it("lists the caller's chats with their datasets as stored rows, skipping deleted datasets", async () => {
    const fresh = await apiUser(server);
    const kept = await parsedDataset(fresh);
    const doomed = await parsedDataset(fresh);
    const created = await create({ name: unique(), dataset_ids: [kept, doomed] }, fresh.key);
    expect((await server.rest("DELETE", "/api/v1/datasets", { token: fresh.key, body: { ids: [doomed] } })).body.code).toBe(0);
    const { body } = await list("", fresh.key);
    expect(body.code).toBe(0);
    expect(body.data).toHaveLength(1);
    const chat = body.data[0];
    expect(chat).toMatchObject({ id: created.body.data.id, top_k: 1024, prompt: { keywords_similarity_weight: 0.7 } });
    expect(chat).not.toHaveProperty("dataset_ids");
    expect(chat.datasets).toHaveLength(1);
    expect(chat.datasets[0]).toMatchObject({ id: kept, embd_id: "BAAI/bge-small-en-v1.5@Builtin", chunk_num: 4, parser_id: "naive", tenant_id: fresh.tenantId });
  });

  it("pages, orders and filters as RAGFlow does", async () => {
    const fresh = await apiUser(server);
    const kb = await parsedDataset(fresh);
    const names = ["first", "second", "third"];
    for (const name of names) await create({ name, dataset_ids: [kb] }, fresh.key);
    const namesOf = (answer: { body: { data: { name: string }[] } }) => answer.body.data.map((c) => c.name);
    expect(namesOf(await list("", fresh.key))).toEqual(["third", "second", "first"]);
    expect(namesOf(await list("?desc=False", fresh.key))).toEqual(names);
    expect(namesOf(await list("?orderby=name&desc=false&page=2&page_size=2", fresh.key))).toEqual(["third"]);
    expect(namesOf(await list("?page=0&page_size=1", fresh.key))).toEqual(["third"]);
    expect((await list("?page_size=0", fresh.key)).body).toEqual({ code: 0, data: [] });
    expect(namesOf(await list("?name=second", fresh.key))).toEqual(["second"]);
    expect((await list("?name=unknown", fresh.key)).body).toEqual({ code: 102, message: "The chat doesn't exist" });
    expect((await list("?id=unknown", fresh.key)).body).toEqual({ code: 102, message: "The chat doesn't exist" });
    const second = (await list("?name=second", fresh.key)).body.data[0].id;
    expect((await list(`?id=${second}&name=first`, fresh.key)).body).toEqual({ code: 102, message: "The chat doesn't exist" });
    expect((await list("?page=a", fresh.key)).body).toMatchObject({ code: 100, message: "ValueError(\"invalid literal for int() with base 10: 'a'\")" });
    // Another tenant sees none of them.
    expect((await list(`?id=${second}`, other.key)).body).toEqual({ code: 102, message: "The chat doesn't exist" });
  });
});
