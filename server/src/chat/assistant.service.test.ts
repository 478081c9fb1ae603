import type { Principal, SignedIn } from "../policies/principal";
import { DomainError } from "../platform/errors";
import { newId } from "../platform/ids";
import { signUpAndIn, startTestServer, type TestServer } from "../testing/app";
import type { AssistantInput } from "./assistant.service";
import { DEFAULT_SYSTEM_PROMPT, FREEDOM_PRESETS } from "./prompt-defaults";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function member(): Promise<SignedIn & { token: string }> {
  const { token } = await signUpAndIn(server);
  const p = await server.services.principalFor(`Bearer ${token}`);
  if (p.kind !== "session") throw new Error("not signed in");
  return { ...p, token };
}

/** A knowledge base counted as holding parsed chunks (what assistants check), without parsing anything. */
async function parsedKnowledgeBase(owner: SignedIn, options: { chunks?: number; embeddingModel?: string } = {}) {
  const kb = await server.services.knowledgeBases.create(owner, { name: `kb-${newId()}`, embeddingModel: options.embeddingModel });
  await server.platform.db.query(`UPDATE knowledge_base SET chunk_count = $2 WHERE id = $1`, [kb.id, options.chunks ?? 3]);
  return kb;
}

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error("expected a DomainError");
}

const fieldsOf = (error: DomainError) => Object.fromEntries(error.fields.map((f) => [f.field, f.messageKey]));

describe("assistants", () => {
  it("a new assistant gets RAGFlow's defaults and the tenant's default chat model", async () => {
    const owner = await member();
    const kb = await parsedKnowledgeBase(owner);
    const assistant = await server.services.assistants.create(owner, { name: "Helper", knowledgeBaseIds: [kb.id] });
    expect(assistant).toMatchObject({
      name: "Helper",
      description: "A helpful Assistant",
      language: "English",
      opener: "Hi! I'm your assistant. What can I do for you?",
      emptyResponse: "Sorry! No relevant content was found in the knowledge base!",
      systemPrompt: DEFAULT_SYSTEM_PROMPT,
      promptVariables: [{ key: "knowledge", optional: false }],
      topN: 6,
      topK: 1024,
      similarityThreshold: expect.closeTo(0.2, 5),
      vectorSimilarityWeight: expect.closeTo(0.3, 5),
      rerankModel: null,
      chatModel: "cairn-extractive@Builtin",
      temperature: 0.1,
      topP: 0.3,
      presencePenalty: 0.4,
      frequencyPenalty: 0.7,
      maxTokens: 512,
      freedom: "custom",
      showQuote: true,
      multiTurnRefine: true,
      selfRag: false,
      keywordExtraction: false,
      tts: false,
      kbIds: [kb.id],
      status: "1",
      createdBy: owner.user.id,
    });
    expect(assistant.systemPrompt.toLowerCase()).toContain("the answer you are looking for is not found in the knowledge base");
    expect(assistant.systemPrompt).toContain("{knowledge}");
    expect((await server.services.assistants.knowledgeBases(assistant)).map((k) => k.id)).toEqual([kb.id]);
  });

  it("refuses bad settings with one translated message per field, and stores nothing", async () => {
    const owner = await member();
    const stranger = await member();
    const foreign = await parsedKnowledgeBase(stranger);
    const input: AssistantInput = {
      name: "  ",
      knowledgeBaseIds: [foreign.id],
      systemPrompt: "Answer with {context}.",
      promptVariables: [{ key: "context", optional: false }],
      temperature: 1.5,
      topP: -0.1,
      presencePenalty: 2,
      frequencyPenalty: Number.NaN,
      maxTokens: 0,
      topN: 0,
      similarityThreshold: 1.2,
      chatModel: "nothing@Nowhere",
      rerankModel: "nothing@Nowhere",
      freedom: "wild",
      avatar: "javascript:alert(1)",
    };
    const error = await failure(server.services.assistants.create(owner, input));
    expect(error.kind).toBe("BAD_REQUEST");
    expect(fieldsOf(error)).toEqual({
      name: "errors.chat.nameRequired",
      avatar: "errors.chat.avatarInvalid",
      promptVariables: "errors.chat.variableUnused",
      knowledgeBaseIds: "errors.chat.knowledgeBaseUnusable",
      topN: "errors.chat.between",
      similarityThreshold: "errors.chat.between",
      rerankModel: "errors.chat.modelUnavailable",
      chatModel: "errors.chat.modelUnavailable",
      freedom: "errors.chat.freedomInvalid",
      temperature: "errors.chat.between",
      topP: "errors.chat.between",
      presencePenalty: "errors.chat.between",
      frequencyPenalty: "errors.chat.between",
      maxTokens: "errors.chat.maxTokensInvalid",
    });
    // The reserved knowledge variable came back, and it is the one the prompt lacks.
    expect(error.fields.find((f) => f.field === "promptVariables")!.params).toEqual({ key: "knowledge", braced: "{knowledge}" });
    expect(error.extensions.fields).toContainEqual(expect.objectContaining({ field: "name", message: "Please input name!" }));
    expect((await server.services.assistants.list(owner)).total).toBe(0);
  });

  it("needs knowledge bases with parsed files and one embedding model while the prompt uses {knowledge}", async () => {
    const owner = await member();
    const parsed = await parsedKnowledgeBase(owner, { embeddingModel: "cairn-embedding@Builtin" });
    const empty = await parsedKnowledgeBase(owner, { chunks: 0 });
    const otherModel = await parsedKnowledgeBase(owner, { embeddingModel: "BAAI/bge-small-en-v1.5@Builtin" });
    const create = (input: AssistantInput) => failure(server.services.assistants.create(owner, { name: `a-${newId()}`, ...input }));

    expect(fieldsOf(await create({}))).toEqual({ knowledgeBaseIds: "errors.chat.knowledgeBasesRequired" });
    const unparsed = await create({ knowledgeBaseIds: [parsed.id, empty.id] });
    expect(unparsed.fields[0]).toMatchObject({ messageKey: "errors.chat.knowledgeBaseNotParsed", params: { name: empty.name } });
    expect(fieldsOf(await create({ knowledgeBaseIds: [parsed.id, otherModel.id] }))).toEqual({ knowledgeBaseIds: "errors.chat.embeddingMismatch" });

    // With {knowledge} optional, an assistant may just chat with its system prompt.
    const plain = await server.services.assistants.create(owner, { name: "Plain", systemPrompt: "You are terse.", promptVariables: [{ key: "knowledge", optional: true }] });
    expect(plain.kbIds).toEqual([]);
  });

  it("names are unique per tenant whatever their case, and a deleted assistant frees its name", async () => {
    const owner = await member();
    const other = await member();
    const kb = await parsedKnowledgeBase(owner);
    const first = await server.services.assistants.create(owner, { name: "Support", knowledgeBaseIds: [kb.id] });
    const clash = await failure(server.services.assistants.create(owner, { name: "SUPPORT", knowledgeBaseIds: [kb.id] }));
    expect(clash).toMatchObject({ kind: "CONFLICT", messageKey: "errors.chat.nameTaken" });
    const second = await server.services.assistants.create(owner, { name: "Sales", knowledgeBaseIds: [kb.id] });
    expect(await failure(server.services.assistants.update(owner, second.id, { name: "support" }))).toMatchObject({ kind: "CONFLICT" });
    // Another tenant may use the name.
    const theirs = await parsedKnowledgeBase(other);
    await server.services.assistants.create(other, { name: "Support", knowledgeBaseIds: [theirs.id] });

    await server.services.assistants.delete(owner, [first.id]);
    const again = await server.services.assistants.create(owner, { name: "support", knowledgeBaseIds: [kb.id] });
    expect(again.name).toBe("support");
  });

  it("a freedom preset sets the four values; changing one of them makes the settings custom", async () => {
    const owner = await member();
    const kb = await parsedKnowledgeBase(owner);
    const precise = FREEDOM_PRESETS.find((p) => p.name === "precise")!;
    const assistant = await server.services.assistants.create(owner, { name: "Preset", knowledgeBaseIds: [kb.id], freedom: "precise" });
    expect(assistant).toMatchObject({ freedom: "precise", temperature: precise.temperature, topP: precise.topP, presencePenalty: precise.presencePenalty, frequencyPenalty: precise.frequencyPenalty, maxTokens: 512 });
    const edited = await server.services.assistants.update(owner, assistant.id, { temperature: 0.9 });
    expect(edited).toMatchObject({ freedom: "custom", temperature: 0.9, topP: precise.topP });
    const improvise = await server.services.assistants.update(owner, assistant.id, { freedom: "improvise" });
    expect(improvise).toMatchObject({ freedom: "improvise", temperature: 0.8, topP: 0.9, presencePenalty: 0.1, frequencyPenalty: 0.1 });
  });

  it("an update changes only the fields given", async () => {
    const owner = await member();
    const kb = await parsedKnowledgeBase(owner);
    const assistant = await server.services.assistants.create(owner, { name: "Editable", knowledgeBaseIds: [kb.id], opener: "Hello", tts: true });
    const updated = await server.services.assistants.update(owner, assistant.id, {
      systemPrompt: "Use {knowledge} to answer for {company}.",
      promptVariables: [{ key: "company", optional: true }],
      emptyResponse: "",
      showQuote: false,
      topN: 12,
      vectorSimilarityWeight: 0.7,
    });
    expect(updated).toMatchObject({
      name: "Editable",
      opener: "Hello",
      tts: true,
      emptyResponse: "",
      showQuote: false,
      doRefer: "0",
      topN: 12,
      vectorSimilarityWeight: expect.closeTo(0.7, 5),
      promptVariables: [
        { key: "knowledge", optional: false },
        { key: "company", optional: true },
      ],
    });
    expect(updated.updatedAt.getTime()).toBeGreaterThanOrEqual(assistant.updatedAt.getTime());
    const unused = await failure(server.services.assistants.update(owner, assistant.id, { systemPrompt: "No variables here." }));
    expect(fieldsOf(unused)).toEqual({ promptVariables: "errors.chat.variableUnused" });
  });

  it("the REST API's delete is soft: the assistant disappears but its row stays", async () => {
    const owner = await member();
    const kb = await parsedKnowledgeBase(owner);
    const assistant = await server.services.assistants.create(owner, { name: "Gone", knowledgeBaseIds: [kb.id] });
    await server.services.assistants.softDelete(owner, [assistant.id]);
    expect(await failure(server.services.assistants.get(owner, assistant.id))).toMatchObject({ kind: "NOT_FOUND", messageKey: "errors.chat.notFound" });
    expect((await server.services.assistants.list(owner)).items).toEqual([]);
    const [row] = await server.platform.db.query(`SELECT status FROM chat_assistant WHERE id = $1`, [assistant.id]);
    expect(row.status).toBe("0");
    expect(await failure(server.services.assistants.delete(owner, [assistant.id]))).toMatchObject({ kind: "NOT_FOUND" });
  });

  it("lists newest first with a name search and paging", async () => {
    const owner = await member();
    const kb = await parsedKnowledgeBase(owner);
    for (const name of ["Alpha desk", "Beta desk", "Gamma"]) await server.services.assistants.create(owner, { name, knowledgeBaseIds: [kb.id] });
    const all = await server.services.assistants.list(owner);
    expect(all.items.map((a) => a.name)).toEqual(["Gamma", "Beta desk", "Alpha desk"]);
    const desks = await server.services.assistants.list(owner, { search: "DESK", pageSize: 1, page: 2 });
    expect(desks).toMatchObject({ total: 2, items: [{ name: "Alpha desk" }] });
  });

  it("a second tenant can neither see nor change nor delete the first tenant's assistants", async () => {
    const owner = await member();
    const intruder = await member();
    const kb = await parsedKnowledgeBase(owner);
    const assistant = await server.services.assistants.create(owner, { name: "Private", knowledgeBaseIds: [kb.id] });
    expect((await server.services.assistants.list(intruder)).total).toBe(0);
    expect(await failure(server.services.assistants.get(intruder, assistant.id))).toMatchObject({ kind: "NOT_FOUND" });
    expect(await failure(server.services.assistants.usable(intruder, assistant.id))).toMatchObject({ kind: "NOT_FOUND" });
    expect(await failure(server.services.assistants.update(intruder, assistant.id, { name: "Mine" }))).toMatchObject({ kind: "NOT_FOUND" });
    expect(await failure(server.services.assistants.delete(intruder, [assistant.id]))).toMatchObject({ kind: "NOT_FOUND" });
    expect(await failure(server.services.shares.share(intruder, assistant.id))).toMatchObject({ kind: "NOT_FOUND" });
    // Nor can it build an assistant over the first tenant's knowledge base.
    const borrowed = await failure(server.services.assistants.create(intruder, { name: "Borrowed", knowledgeBaseIds: [kb.id] }));
    expect(fieldsOf(borrowed)).toEqual({ knowledgeBaseIds: "errors.chat.knowledgeBaseUnusable" });
    expect((await server.services.assistants.get(owner, assistant.id)).name).toBe("Private");
  });
});

describe("sharing", () => {
  const CREATE_TOKEN = `mutation { createApiToken { token } }`;

  it("needs an API token of the tenant first, then gives one stable share until it is revoked", async () => {
    const owner = await member();
    const kb = await parsedKnowledgeBase(owner);
    const assistant = await server.services.assistants.create(owner, { name: "Shared", knowledgeBaseIds: [kb.id] });
    expect(await failure(server.services.shares.share(owner, assistant.id))).toMatchObject({ kind: "BAD_REQUEST", messageKey: "errors.createApiTokenFirst", message: "Please create API Token first!" });
    expect(await server.services.shares.get(owner, assistant.id)).toBeNull();

    await server.graphql(CREATE_TOKEN, {}, owner.token);
    const [first, second] = await Promise.all([server.services.shares.share(owner, assistant.id), server.services.shares.share(owner, assistant.id)]);
    expect(first.id).toBe(second.id);
    expect(first.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await server.services.shares.get(owner, assistant.id))?.id).toBe(first.id);

    const principal = await server.services.principalFor(`Bearer ${first.id}`);
    expect(principal).toEqual({ kind: "share", tenantId: owner.tenantId, assistantId: assistant.id, shareId: first.id });
    expect((await server.services.assistants.usable(principal, assistant.id)).id).toBe(assistant.id);

    expect(await server.services.shares.revoke(owner, assistant.id)).toBe(true);
    expect((await server.services.principalFor(`Bearer ${first.id}`)).kind).toBe("anonymous");
    const renewed = await server.services.shares.share(owner, assistant.id);
    expect(renewed.id).not.toBe(first.id);
    // Deleting the assistant ends its share too.
    await server.services.assistants.delete(owner, [assistant.id]);
    expect((await server.services.principalFor(`Bearer ${renewed.id}`)).kind).toBe("anonymous");
  });

  it("a share principal may use its own assistant and no other", async () => {
    const owner = await member();
    const kb = await parsedKnowledgeBase(owner);
    const shared = await server.services.assistants.create(owner, { name: "Open", knowledgeBaseIds: [kb.id] });
    const other = await server.services.assistants.create(owner, { name: "Closed", knowledgeBaseIds: [kb.id] });
    const visitor: Principal = { kind: "share", tenantId: owner.tenantId, assistantId: shared.id, shareId: "x" };
    expect((await server.services.assistants.usable(visitor, shared.id)).name).toBe("Open");
    expect(await failure(server.services.assistants.usable(visitor, other.id))).toMatchObject({ kind: "NOT_FOUND" });
    expect(await failure(server.services.assistants.usable({ kind: "anonymous" }, shared.id))).toMatchObject({ kind: "UNAUTHENTICATED" });
  });
});
