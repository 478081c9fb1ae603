import { apiUser, createDataset, type ApiUser } from "../../testing/rest-support";
import { startTestServer, type TestServer } from "../../testing/app";
import { englishMessage } from "../../platform/messages";

/**
 * One rule, one place: an assistant the settings form (GraphQL) refuses is refused over RAGFlow's REST API
 * too, by the same rule of AssistantService, worded as RAGFlow words it; and what RAGFlow deliberately
 * accepts (its leniency) is accepted over REST only.
 */

let server: TestServer;
let user: ApiUser;
let other: ApiUser;
let parsed: string;
let existing: { id: string; name: string };

const CREATE = `mutation Create($input: AssistantInput!) { createAssistant(input: $input) { id name } }`;
const UPDATE = `mutation Update($id: ID!, $input: AssistantInput!) { updateAssistant(id: $id, input: $input) { id } }`;

/** A dataset counted as holding parsed chunks (parsing is tested with ingestion). */
async function dataset(owner: ApiUser, body: Record<string, unknown> = {}, chunks = 3): Promise<string> {
  const id = await createDataset(server, owner, body);
  await server.platform.db.query(`UPDATE knowledge_base SET chunk_count = $2 WHERE id = $1`, [id, chunks]);
  return id;
}

const unique = () => `rule-${Math.random().toString(36).slice(2)}`;

beforeAll(async () => {
  server = await startTestServer();
  [user, other] = [await apiUser(server), await apiUser(server)];
  parsed = await dataset(user);
  const name = unique();
  const created = await server.rest("POST", "/api/v1/chats", { token: user.key, body: { name, dataset_ids: [parsed] } });
  existing = { id: created.body.data.id, name };
});
afterAll(() => server.close());

interface Refusal {
  /** The settings form's input and RAGFlow's body that break the rule. */
  form: Record<string, unknown>;
  rest: Record<string, unknown>;
  messageKey: string;
  params?: Record<string, unknown>;
  restCode: number;
  restMessage: string;
}

async function storedCount(): Promise<number> {
  const [{ count }] = await server.platform.db.query(`SELECT count(*)::int AS count FROM chat_assistant WHERE tenant_id = $1 AND status = '1'`, [user.tenantId]);
  return count;
}

/** Both surfaces refuse to create it, each in its own words, and nothing is stored. */
async function refusedOnCreate({ form, rest, messageKey, params, restCode, restMessage }: Refusal): Promise<void> {
  const before = await storedCount();
  const viaForm = await server.graphql(CREATE, { input: { name: unique(), knowledgeBaseIds: [parsed], ...form } }, user.token);
  expect(viaForm.errors?.[0]).toMatchObject({ message: englishMessage(messageKey, params ?? {}), extensions: { messageKey } });
  const viaRest = await server.rest("POST", "/api/v1/chats", { token: user.key, body: { name: unique(), dataset_ids: [parsed], ...rest } });
  expect(viaRest.body).toEqual({ code: restCode, message: restMessage });
  expect(await storedCount()).toBe(before);
}

/** Both surfaces refuse to change an assistant so, and it keeps its settings. */
async function refusedOnUpdate({ form, rest, messageKey, restCode, restMessage }: Omit<Refusal, "params">): Promise<void> {
  const [before] = await server.platform.db.query(`SELECT * FROM chat_assistant WHERE id = $1`, [existing.id]);
  const viaForm = await server.graphql(UPDATE, { id: existing.id, input: form }, user.token);
  expect(viaForm.errors?.[0].extensions).toMatchObject({ messageKey });
  const viaRest = await server.rest("PUT", `/api/v1/chats/${existing.id}`, { token: user.key, body: { dataset_ids: [parsed], ...rest } });
  expect(viaRest.body).toEqual({ code: restCode, message: restMessage });
  expect((await server.platform.db.query(`SELECT * FROM chat_assistant WHERE id = $1`, [existing.id]))[0]).toEqual(before);
}

describe("an assistant the settings form refuses is refused over RAGFlow's API too", () => {
  it("knowledge bases the user may not use", async () => {
    const foreign = await dataset(other);
    const refusal = { form: { knowledgeBaseIds: [foreign] }, rest: { dataset_ids: [foreign] }, messageKey: "errors.chat.knowledgeBaseUnusable", params: { id: foreign }, restCode: 102, restMessage: `You don't own the dataset ${foreign}` };
    await refusedOnCreate(refusal);
    await refusedOnUpdate(refusal);
  });

  it("knowledge bases without parsed files", async () => {
    const unparsed = await dataset(user, {}, 0);
    const [{ name }] = await server.platform.db.query(`SELECT name FROM knowledge_base WHERE id = $1`, [unparsed]);
    const refusal = { form: { knowledgeBaseIds: [parsed, unparsed] }, rest: { dataset_ids: [parsed, unparsed] }, messageKey: "errors.chat.knowledgeBaseNotParsed", params: { id: unparsed, name }, restCode: 102, restMessage: `The dataset ${unparsed} doesn't own parsed file` };
    await refusedOnCreate(refusal);
    await refusedOnUpdate(refusal);
  });

  it("knowledge bases that embed with different models", async () => {
    const otherModel = await dataset(user, { embedding_model: "cairn-embedding@Builtin" });
    const refusal = { form: { knowledgeBaseIds: [parsed, otherModel] }, rest: { dataset_ids: [parsed, otherModel] }, messageKey: "errors.chat.embeddingMismatch", restCode: 109, restMessage: 'Datasets use different embedding models."' };
    await refusedOnCreate(refusal);
    await refusedOnUpdate(refusal);
  });

  it("a chat model the tenant does not have", async () => {
    const refusal = { form: { chatModel: "no-such-model" }, rest: { llm: { model_name: "no-such-model" } }, messageKey: "errors.chat.modelUnavailable", params: { model: "no-such-model" }, restCode: 102, restMessage: "`model_name` no-such-model doesn't exist" };
    await refusedOnCreate(refusal);
    await refusedOnUpdate(refusal);
  });

  it("a rerank model the tenant does not have", async () => {
    const refusal = { form: { rerankModel: "no-such-reranker" }, rest: { prompt: { rerank_model: "no-such-reranker" } }, messageKey: "errors.chat.modelUnavailable", params: { model: "no-such-reranker" }, restCode: 102, restMessage: "`rerank_model` no-such-reranker doesn't exist" };
    await refusedOnCreate(refusal);
    await refusedOnUpdate(refusal);
  });

  it("a system prompt without a required variable", async () => {
    const refusal = { form: { systemPrompt: "Hello World" }, rest: { prompt: { prompt: "Hello World" } }, messageKey: "errors.chat.variableUnused", params: { key: "knowledge", braced: "{knowledge}" }, restCode: 102, restMessage: "Parameter 'knowledge' is not used" };
    await refusedOnCreate(refusal);
    await refusedOnUpdate(refusal);
  });

  it("no name, a name too long, a name another assistant has", async () => {
    await refusedOnCreate({ form: { name: "" }, rest: { name: "" }, messageKey: "errors.chat.nameRequired", restCode: 102, restMessage: "`name` is required." });
    await refusedOnUpdate({ form: { name: "" }, rest: { name: "" }, messageKey: "errors.chat.nameRequired", restCode: 102, restMessage: "`name` cannot be empty." });
    // RAGFlow has no message of its own for a name longer than its column: the English one answers.
    const long = "n".repeat(256);
    const tooLong = englishMessage("errors.chat.nameTooLong", { max: 255 });
    await refusedOnCreate({ form: { name: long }, rest: { name: long }, messageKey: "errors.chat.nameTooLong", params: { max: 255 }, restCode: 101, restMessage: tooLong });
    await refusedOnUpdate({ form: { name: long }, rest: { name: long }, messageKey: "errors.chat.nameTooLong", restCode: 101, restMessage: tooLong });
    const taken = existing.name.toUpperCase();
    await refusedOnCreate({ form: { name: taken }, rest: { name: taken }, messageKey: "errors.chat.nameTaken", params: { name: taken }, restCode: 102, restMessage: "Duplicated chat name in creating chat." });
    const second = await server.rest("POST", "/api/v1/chats", { token: user.key, body: { name: unique(), dataset_ids: [parsed] } });
    const [form, rest] = [await server.graphql(UPDATE, { id: second.body.data.id, input: { name: taken } }, user.token), await server.rest("PUT", `/api/v1/chats/${second.body.data.id}`, { token: user.key, body: { name: taken } })];
    expect(form.errors?.[0].extensions).toMatchObject({ code: "CONFLICT", messageKey: "errors.chat.nameTaken" });
    expect(rest.body).toEqual({ code: 102, message: "Duplicated chat name in updating chat." });
  });
});

describe("what RAGFlow deliberately accepts is accepted over REST only", () => {
  it("a free-form avatar, no knowledge base for a {knowledge} prompt, numbers out of range, verbatim model settings", async () => {
    const form = await server.graphql(
      CREATE,
      { input: { name: unique(), avatar: "aGVsbG8=", knowledgeBaseIds: [], topN: 100, similarityThreshold: 2, temperature: 5, maxTokens: 0 } },
      user.token,
    );
    expect(Object.fromEntries(form.errors![0].extensions.fields.map((f: { field: string; messageKey: string }) => [f.field, f.messageKey]))).toEqual({
      avatar: "errors.chat.avatarInvalid",
      knowledgeBaseIds: "errors.chat.knowledgeBasesRequired",
      topN: "errors.chat.between",
      similarityThreshold: "errors.chat.between",
      temperature: "errors.chat.between",
      maxTokens: "errors.chat.maxTokensInvalid",
    });
    const rest = await server.rest("POST", "/api/v1/chats", {
      token: user.key,
      body: { name: unique(), avatar: "aGVsbG8=", prompt: { top_n: 100, similarity_threshold: 2 }, llm: { temperature: 5, max_tokens: 0 } },
    });
    expect(rest.body).toMatchObject({ code: 0, data: { avatar: "aGVsbG8=", dataset_ids: [], prompt: { top_n: 100, similarity_threshold: 2 }, llm: { temperature: 5, max_tokens: 0 } } });
  });
});
