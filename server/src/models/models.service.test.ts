import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { signUpAndIn, startTestServer, type TestServer } from "../testing/app";
import { completeChat } from "./model-types";
import { ModelsService } from "./models.service";

const ADD = `mutation Add($input: ModelEntryInput!) { addModelEntry(input: $input) { id modelId provider modelName modelType credentials { name value secret } vision maxTokens usedTokens } }`;
const UPDATE = `mutation Update($id: ID!, $input: ModelEntryUpdate!) { updateModelEntry(id: $id, input: $input) { id credentials { name value secret } } }`;
const DELETE = `mutation Delete($id: ID!) { deleteModelEntry(id: $id) }`;
const LIST = `query { modelEntries { id modelId } }`;
const TEST_INPUT = `mutation Test($input: ModelEntryInput) { testModelConnection(input: $input) { ok latencyMs message } }`;
const TEST_ENTRY = `mutation Test($id: ID) { testModelConnection(entryId: $id) { ok message } }`;
const TEST_EDIT = `mutation Test($id: ID, $input: ModelEntryInput) { testModelConnection(entryId: $id, input: $input) { ok message messageKey } }`;
const DEFAULTS = `query { defaultModels { chat embedding rerank img2txt sequence2txt tts } }`;
const AVAILABLE = `query Available($type: String) { availableModels(type: $type) { id builtin modelType } }`;
const SET_DEFAULTS = `mutation Set($input: DefaultModelsInput!) { setDefaultModels(input: $input) { chat embedding } }`;

const API_KEY = "sk-local-test-key-123456";

/** A local server speaking the OpenAI chat-completions protocol, answering only the right bearer key. */
function startOpenAiServer(): Promise<{ url: string; close(): Promise<void>; authorizations: string[] }> {
  const authorizations: string[] = [];
  const server = http.createServer((req, res) => {
    authorizations.push(req.headers.authorization ?? "");
    if (req.headers.authorization !== `Bearer ${API_KEY}`) {
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "Incorrect API key provided" } }));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    const frames = [
      { choices: [{ index: 0, delta: { role: "assistant", content: "Hel" } }] },
      { choices: [{ index: 0, delta: { content: "lo" }, finish_reason: "stop" }] },
      { choices: [], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } },
    ];
    for (const frame of frames) res.write(`data: ${JSON.stringify(frame)}\n\n`);
    res.end("data: [DONE]\n\n");
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        authorizations,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  );
}

let server: TestServer;
let vendor: Awaited<ReturnType<typeof startOpenAiServer>>;

beforeAll(async () => {
  server = await startTestServer();
  vendor = await startOpenAiServer();
});
afterAll(async () => {
  await vendor.close();
  await server.close();
});

function chatInput(overrides: Record<string, unknown> = {}) {
  return {
    provider: "OpenAI-API-Compatible",
    modelName: "local-model",
    modelType: "chat",
    credentials: [
      { name: "apiKey", value: API_KEY },
      { name: "baseUrl", value: vendor.url },
    ],
    ...overrides,
  };
}

interface Entry {
  id: string;
  modelId: string;
  credentials: { name: string; value: string; secret: boolean }[];
}

async function addChatModel(token: string, overrides: Record<string, unknown> = {}): Promise<Entry> {
  const added = await server.graphql<{ addModelEntry: Entry }>(ADD, { input: chatInput(overrides) }, token);
  if (!added.data) throw new Error(JSON.stringify(added.errors));
  return added.data.addModelEntry;
}

describe("model entries", () => {
  it("seal the API key at rest and show it masked", async () => {
    const { token, userId } = await signUpAndIn(server);
    const entry = await addChatModel(token);
    expect(entry.modelId).toBe("local-model@OpenAI-API-Compatible");
    expect(entry.credentials).toEqual([
      { name: "apiKey", value: "sk-••••••••3456", secret: true },
      { name: "baseUrl", value: vendor.url, secret: false },
    ]);
    const rows = await server.platform.db.query(`SELECT * FROM model_entry WHERE tenant_id = $1`, [userId]);
    expect(JSON.stringify(rows)).not.toContain("local-test-key");
  });

  it("refuse bad input with every problem named, and store nothing", async () => {
    const { token, userId } = await signUpAndIn(server);
    const response = await server.graphql(
      ADD,
      { input: chatInput({ modelName: "", credentials: [{ name: "baseUrl", value: "ftp://nowhere" }] }) },
      token,
    );
    const fields = (response.errors?.[0].extensions.fields ?? []) as { field: string; messageKey: string }[];
    expect(fields.map((f) => [f.field, f.messageKey])).toEqual([["modelName", "errors.model.nameRequired"]]);
    const badUrl = await server.graphql(ADD, { input: chatInput({ credentials: [{ name: "baseUrl", value: "ftp://nowhere" }] }) }, token);
    expect(badUrl.errors?.[0].extensions.fields).toEqual([expect.objectContaining({ field: "baseUrl", messageKey: "errors.model.urlInvalid" })]);
    const unknown = await server.graphql(ADD, { input: chatInput({ provider: "Nobody" }) }, token);
    expect(unknown.errors?.[0].extensions.messageKey).toBe("errors.model.providerUnknown");
    expect(await server.platform.db.query(`SELECT id FROM model_entry WHERE tenant_id = $1`, [userId])).toEqual([]);
  });

  it("cannot be added twice", async () => {
    const { token } = await signUpAndIn(server);
    await addChatModel(token);
    const again = await server.graphql(ADD, { input: chatInput() }, token);
    expect(again.errors?.[0].extensions).toMatchObject({ code: "CONFLICT", messageKey: "errors.model.entryExists" });
  });

  it("keep a stored secret when an update leaves it empty", async () => {
    const { token } = await signUpAndIn(server);
    const entry = await addChatModel(token);
    const updated = await server.graphql(UPDATE, { id: entry.id, input: { credentials: [{ name: "apiKey", value: "" }, { name: "baseUrl", value: vendor.url }] } }, token);
    expect(updated.errors).toBeUndefined();
    expect((await server.graphql<{ testModelConnection: { ok: boolean } }>(TEST_ENTRY, { id: entry.id }, token)).data?.testModelConnection.ok).toBe(true);
    expect(vendor.authorizations.at(-1)).toBe(`Bearer ${API_KEY}`);
  });
});

describe("testing a connection", () => {
  it("succeeds against a server that answers, before anything is saved", async () => {
    const { token } = await signUpAndIn(server);
    const result = await server.graphql<{ testModelConnection: { ok: boolean; message: string | null } }>(TEST_INPUT, { input: chatInput() }, token);
    expect(result.data?.testModelConnection).toMatchObject({ ok: true, message: null });
  });

  it("reports the vendor's refusal of a wrong key", async () => {
    const { token } = await signUpAndIn(server);
    const input = chatInput({ credentials: [{ name: "apiKey", value: "sk-wrong" }, { name: "baseUrl", value: vendor.url }] });
    const result = await server.graphql<{ testModelConnection: { ok: boolean; message: string } }>(TEST_INPUT, { input }, token);
    expect(result.data?.testModelConnection.ok).toBe(false);
    expect(result.data?.testModelConnection.message).toContain("Incorrect API key provided");
    const keyed = await server.graphql<{ testModelConnection: { messageKey: string } }>(TEST_EDIT, { input }, token);
    expect(keyed.data?.testModelConnection.messageKey).toBe("errors.model.auth");
  });

  it("tests an entry's edited settings, with the stored key where the edit leaves it empty and the address is the same", async () => {
    const { token } = await signUpAndIn(server);
    const entry = await addChatModel(token);
    const edit = (baseUrl: string) => chatInput({ credentials: [{ name: "apiKey", value: "" }, { name: "baseUrl", value: baseUrl }] });
    const kept = await server.graphql<{ testModelConnection: { ok: boolean } }>(TEST_EDIT, { id: entry.id, input: edit(`${vendor.url}/`) }, token);
    expect(kept.data?.testModelConnection.ok).toBe(true);
    expect(vendor.authorizations.at(-1)).toBe(`Bearer ${API_KEY}`);
  });

  it("reports an address where nothing listens", async () => {
    const { token } = await signUpAndIn(server);
    const input = chatInput({ credentials: [{ name: "apiKey", value: API_KEY }, { name: "baseUrl", value: "http://127.0.0.1:1/v1" }] });
    const result = await server.graphql<{ testModelConnection: { ok: boolean; message: string } }>(TEST_INPUT, { input }, token);
    expect(result.data?.testModelConnection).toMatchObject({ ok: false, message: expect.stringContaining("Cannot reach") });
  });
});

describe("default models", () => {
  it("are the built-in models until the tenant chooses", async () => {
    const { token } = await signUpAndIn(server);
    const defaults = await server.graphql<{ defaultModels: Record<string, string> }>(DEFAULTS, {}, token);
    expect(defaults.data?.defaultModels).toMatchObject({
      chat: "cairn-extractive@Builtin",
      embedding: "cairn-embedding@Builtin",
      rerank: "cairn-lexical-rerank@Builtin",
      img2txt: "tesseract-ocr@Builtin",
      sequence2txt: "",
      tts: "",
    });
    const available = await server.graphql<{ availableModels: { id: string; builtin: boolean; modelType: string }[] }>(AVAILABLE, { type: "embedding" }, token);
    expect(available.data?.availableModels).toEqual([
      { id: "cairn-embedding@Builtin", builtin: true, modelType: "embedding" },
      { id: "BAAI/bge-small-en-v1.5@Builtin", builtin: true, modelType: "embedding" },
    ]);
  });

  it("take an added model, refuse one that is not available, and fall back when it is deleted", async () => {
    const { token } = await signUpAndIn(server);
    const entry = await addChatModel(token);
    const set = await server.graphql<{ setDefaultModels: { chat: string } }>(SET_DEFAULTS, { input: { chat: entry.modelId } }, token);
    expect(set.data?.setDefaultModels.chat).toBe(entry.modelId);
    const wrongType = await server.graphql(SET_DEFAULTS, { input: { embedding: entry.modelId } }, token);
    expect(wrongType.errors?.[0].extensions.fields).toEqual([expect.objectContaining({ field: "embedding", messageKey: "errors.model.defaultUnavailable" })]);
    await server.graphql(DELETE, { id: entry.id }, token);
    const after = await server.graphql<{ defaultModels: { chat: string } }>(DEFAULTS, {}, token);
    expect(after.data?.defaultModels.chat).toBe("cairn-extractive@Builtin");
    expect(await server.platform.db.query(`SELECT count(*)::int AS n FROM tenant WHERE default_chat_model = $1`, [entry.modelId])).toEqual([{ n: 0 }]);
  });
});

describe("tenancy", () => {
  it("another tenant can neither see, use, change nor delete an entry", async () => {
    const owner = await signUpAndIn(server);
    const intruder = await signUpAndIn(server);
    const entry = await addChatModel(owner.token);
    expect((await server.graphql<{ modelEntries: unknown[] }>(LIST, {}, intruder.token)).data?.modelEntries).toEqual([]);
    for (const attempt of [
      server.graphql(UPDATE, { id: entry.id, input: { credentials: [] } }, intruder.token),
      server.graphql(DELETE, { id: entry.id }, intruder.token),
      server.graphql(TEST_ENTRY, { id: entry.id }, intruder.token),
    ]) {
      expect((await attempt).errors?.[0].extensions.code).toBe("NOT_FOUND");
    }
    const borrowed = await server.graphql(SET_DEFAULTS, { input: { chat: entry.modelId } }, intruder.token);
    expect(borrowed.errors?.[0].extensions.messageKey).toBe("errors.model.defaultUnavailable");
    await expect(server.services.models.client(intruder.userId, "chat", entry.modelId)).rejects.toMatchObject({ messageKey: "errors.model.notConfigured" });
    expect((await server.graphql<{ modelEntries: unknown[] }>(LIST, {}, owner.token)).data?.modelEntries).toHaveLength(1);
  });
});

describe("calls through a model client", () => {
  it("record their token usage on the entry and in the usage log", async () => {
    const { token, userId } = await signUpAndIn(server);
    const entry = await addChatModel(token);
    const chat = await server.services.models.client(userId, "chat", entry.modelId);
    expect((await completeChat(chat, [{ role: "user", content: "Hi" }])).text).toBe("Hello");
    await new Promise((resolve) => setTimeout(resolve, 100));
    const [usage] = await server.platform.db.query(`SELECT model_id, model_type, total_tokens FROM model_usage WHERE tenant_id = $1`, [userId]);
    expect(usage).toEqual({ model_id: entry.modelId, model_type: "chat", total_tokens: 7 });
    const [row] = await server.platform.db.query(`SELECT used_tokens FROM model_entry WHERE id = $1`, [entry.id]);
    expect(Number(row.used_tokens)).toBe(7);
  });

  it("open their entry once, until it changes through any process (the entry as it was read is kept)", async () => {
    const { token, userId } = await signUpAndIn(server);
    const entry = await addChatModel(token);
    const hello = async (models = server.services.models) => (await completeChat(await models.client(userId, "chat", entry.modelId), [{ role: "user", content: "Hi" }])).text;
    expect(await hello()).toBe("Hello");
    // Changed behind the service's back, the row is not read again: the entry as it was read is used.
    await server.platform.db.query(`UPDATE model_entry SET settings = jsonb_set(settings, '{baseUrl}', '"http://127.0.0.1:9/v1"') WHERE id = $1`, [entry.id]);
    expect(await hello()).toBe("Hello");
    // Changed through the service (here a wrong key), the next call reads it.
    const update = (apiKey: string) => ({ credentials: { apiKey, baseUrl: vendor.url }, maxTokens: null, vision: false });
    const principal = await server.services.principalFor(`Bearer ${token}`);
    if (principal.kind !== "session") throw new Error("not signed in");
    await server.services.models.updateEntry(principal, entry.id, update("sk-wrong-key-000000"));
    await expect(hello()).rejects.toMatchObject({ reason: "auth" });
    // Changed by another process (another service on the same pub/sub), this one forgets it once the message comes.
    const other = new ModelsService(server.platform);
    try {
      await other.updateEntry(principal, entry.id, update(API_KEY));
      await expect(hello(other)).resolves.toBe("Hello");
      const deadline = Date.now() + 10_000;
      while ((await hello().catch(() => "refused")) !== "Hello") {
        if (Date.now() > deadline) throw new Error("the change never reached the first service");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await other.close();
    }
  });

  it("keep the capabilities of their model, so that callers can refuse tools or fall back before they ask", async () => {
    const { token, userId } = await signUpAndIn(server);
    const entry = await addChatModel(token);
    expect((await server.services.models.client(userId, "chat", entry.modelId)).capabilities).toEqual({ tools: true, structuredOutput: true });
    expect((await server.services.models.client(userId, "chat", "cairn-extractive@Builtin")).capabilities).toEqual({ tools: false, structuredOutput: false });
  });
});

describe("RAGFlow's web endpoints for models", () => {
  it("set_api_key registers the provider's catalogue, my_llms lists it, set_tenant_info sets the defaults", async () => {
    const { token } = await signUpAndIn(server);
    const stored = await server.rest("POST", "/v1/llm/set_api_key", { authorization: token, body: { llm_factory: "ZHIPU-AI", api_key: "zhipu-key-123456789" } });
    expect(stored.body).toEqual({ code: 0, message: "success", data: true });
    const mine = await server.rest("GET", "/v1/llm/my_llms", { authorization: token });
    expect(mine.body.data["ZHIPU-AI"].llm).toEqual(expect.arrayContaining([expect.objectContaining({ name: "glm-4-flash", type: "chat" })]));
    const set = await server.rest("POST", "/v1/user/set_tenant_info", {
      authorization: token,
      body: { tenant_id: "x", llm_id: "glm-4-flash@ZHIPU-AI", embd_id: "BAAI/bge-small-en-v1.5@Builtin", img2txt_id: "", asr_id: "" },
    });
    expect(set.body).toEqual({ code: 0, message: "success", data: true });
    const info = await server.rest("GET", "/v1/user/tenant_info", { authorization: token });
    expect(info.body.data).toMatchObject({ llm_id: "glm-4-flash@ZHIPU-AI", embd_id: "BAAI/bge-small-en-v1.5@Builtin" });
  });

  it("set_tenant_info lists missing keys as RAGFlow does", async () => {
    const { token } = await signUpAndIn(server);
    expect((await server.rest("POST", "/v1/user/set_tenant_info", { authorization: token, body: { llm_id: "" } })).body).toEqual({
      code: 101,
      message: "required argument are missing: tenant_id,asr_id,embd_id,img2txt_id; ",
      data: null,
    });
  });
});

/** A local server that answers 401 to everything and records the Authorization header of each request. */
async function startRecordingServer(): Promise<{ url: string; authorizations: string[]; close(): Promise<void> }> {
  const authorizations: string[] = [];
  const recorder = http.createServer((req, res) => {
    authorizations.push(req.headers.authorization ?? "");
    res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "no key here" } }));
  });
  await new Promise<void>((resolve) => recorder.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(recorder.address() as AddressInfo).port}/v1`,
    authorizations,
    close: () => new Promise((done) => recorder.close(() => done())),
  };
}

describe("a stored secret", () => {
  let elsewhere: Awaited<ReturnType<typeof startRecordingServer>>;
  beforeAll(async () => {
    elsewhere = await startRecordingServer();
  });
  afterAll(() => elsewhere.close());

  it("is never sent to a changed base URL: testing or saving the new address without the key is refused on the key field, and changes nothing", async () => {
    const { token } = await signUpAndIn(server);
    const entry = await addChatModel(token);
    const moved = chatInput({ credentials: [{ name: "apiKey", value: "" }, { name: "baseUrl", value: elsewhere.url }] });

    const tested = await server.graphql(TEST_EDIT, { id: entry.id, input: moved }, token);
    expect(tested.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", fields: [{ field: "apiKey", messageKey: "errors.model.secretForNewAddress" }] });
    const updated = await server.graphql(UPDATE, { id: entry.id, input: { credentials: moved.credentials } }, token);
    expect(updated.errors?.[0].extensions.fields).toEqual([expect.objectContaining({ field: "apiKey", messageKey: "errors.model.secretForNewAddress" })]);
    const omitted = await server.graphql(UPDATE, { id: entry.id, input: { credentials: [{ name: "baseUrl", value: elsewhere.url }] } }, token);
    expect(omitted.errors?.[0].extensions.fields).toEqual([expect.objectContaining({ field: "apiKey" })]);
    expect(elsewhere.authorizations).toEqual([]);

    // Nothing changed: the entry still calls its own address with its own key.
    expect((await server.graphql<{ modelEntries: Entry[] }>(`query { modelEntries { id credentials { name value secret } } }`, {}, token)).data?.modelEntries[0].credentials).toContainEqual({
      name: "baseUrl",
      value: vendor.url,
      secret: false,
    });
    expect((await server.graphql<{ testModelConnection: { ok: boolean } }>(TEST_ENTRY, { id: entry.id }, token)).data?.testModelConnection.ok).toBe(true);
    expect(vendor.authorizations.at(-1)).toBe(`Bearer ${API_KEY}`);
    expect(elsewhere.authorizations).toEqual([]);

    // Typed again, the key goes to the new address.
    const retyped = chatInput({ credentials: [{ name: "apiKey", value: "sk-typed-again" }, { name: "baseUrl", value: elsewhere.url }] });
    await server.graphql(TEST_EDIT, { id: entry.id, input: retyped }, token);
    expect(elsewhere.authorizations).toEqual(["Bearer sk-typed-again"]);
  });
});

describe("the connection test's error", () => {
  let foreign: { url: string; close(): Promise<void> };
  let answer: (res: http.ServerResponse) => void = () => undefined;
  beforeAll(async () => {
    const internal = http.createServer((_req, res) => answer(res));
    await new Promise<void>((resolve) => internal.listen(0, "127.0.0.1", resolve));
    foreign = { url: `http://127.0.0.1:${(internal.address() as AddressInfo).port}/v1`, close: () => new Promise((done) => internal.close(() => done())) };
  });
  afterAll(() => foreign.close());

  const SECRET = "AKIAIOSFODNN7EXAMPLE aws_secret_access_key=wJalrXUtnFEMI";

  async function testAgainstForeignServer(modelType = "chat") {
    const { token } = await signUpAndIn(server);
    const input = chatInput({ modelType, credentials: [{ name: "apiKey", value: "k" }, { name: "baseUrl", value: foreign.url }] });
    const result = await server.graphql<{ testModelConnection: { ok: boolean; message: string; messageKey: string } }>(TEST_EDIT, { input }, token);
    expect(result.errors).toBeUndefined();
    return result.data!.testModelConnection;
  }

  it("does not contain a foreign body, whatever its status and form", async () => {
    for (const [status, type, body] of [
      [401, "text/plain", SECRET],
      [500, "text/html", `<html><pre>${SECRET}</pre></html>`],
      [400, "application/json", JSON.stringify({ Code: "Success", AccessKeyId: "AKIAIOSFODNN7EXAMPLE", SecretAccessKey: SECRET })],
    ] as const) {
      answer = (res) => res.writeHead(status, { "content-type": type }).end(body);
      const result = await testAgainstForeignServer();
      expect(result.ok).toBe(false);
      expect(result.message).toContain(`HTTP ${status}`);
      expect(result.message).not.toMatch(/AKIA|wJalr|<pre>/);
    }
    // A 200 answer that is not what the protocol says is not quoted either.
    answer = (res) => res.writeHead(200, { "content-type": "text/plain" }).end(SECRET);
    const embedding = await testAgainstForeignServer("embedding");
    expect(embedding).toMatchObject({ ok: false, messageKey: "errors.model.badRequest" });
    expect(embedding.message).not.toContain("AKIA");
  });

  it("keeps a vendor's structured error message, shortened", async () => {
    answer = (res) => res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `Incorrect API key provided ${"x".repeat(2000)}` } }));
    const result = await testAgainstForeignServer();
    expect(result).toMatchObject({ ok: false, messageKey: "errors.model.auth", message: expect.stringContaining("Incorrect API key provided") });
    expect(result.message.length).toBeLessThan(450);
  });

  it("says a redirect to 169.254.169.254 was not followed", async () => {
    answer = (res) => res.writeHead(307, { location: "http://169.254.169.254/latest/meta-data/iam/security-credentials/" }).end(SECRET);
    const result = await testAgainstForeignServer();
    expect(result).toMatchObject({ ok: false, messageKey: "errors.model.redirectRefused" });
    expect(result.message).not.toContain("AKIA");
  });
});

describe("MODEL_PRIVATE_ADDRESSES=false", () => {
  let hosted: TestServer;
  beforeAll(async () => {
    hosted = await startTestServer({ MODEL_PRIVATE_ADDRESSES: "false" });
  });
  afterAll(() => hosted.close());

  it("refuses a loopback base URL with a translated error, and sends it nothing", async () => {
    const { token } = await signUpAndIn(hosted);
    const before = vendor.authorizations.length;
    const added = await hosted.graphql(ADD, { input: chatInput() }, token);
    expect(added.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", fields: [{ field: "baseUrl", messageKey: "errors.model.addressNotAllowed", params: { host: "127.0.0.1" } }] });

    // A name that resolves to loopback is refused when the call connects.
    const byName = chatInput({ credentials: [{ name: "apiKey", value: API_KEY }, { name: "baseUrl", value: vendor.url.replace("127.0.0.1", "localhost") }] });
    const tested = await hosted.graphql<{ testModelConnection: { ok: boolean; message: string; messageKey: string } }>(TEST_EDIT, { input: byName }, token);
    expect(tested.data?.testModelConnection).toMatchObject({ ok: false, messageKey: "errors.model.addressRefused", message: expect.stringContaining("localhost") });
    expect(vendor.authorizations.length).toBe(before);

    for (const language of ["en", "zh", "zh-TRADITIONAL", "id", "es"]) {
      const messages = JSON.parse(fs.readFileSync(path.join(__dirname, "../../../locales", `${language}.json`), "utf8"));
      expect([language, typeof messages.errors.model.addressRefused, typeof messages.errors.model.addressNotAllowed]).toEqual([language, "string", "string"]);
    }
  });
});
