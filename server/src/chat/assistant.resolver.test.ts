import { newId } from "../platform/ids";
import { signUpAndIn, startTestServer, type TestServer } from "../testing/app";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const ASSISTANT_FIELDS = `id name avatar description language emptyResponse opener knowledgeBaseIds knowledgeBases { id name avatar chunkCount }
  systemPrompt promptVariables { key optional } topN topK similarityThreshold vectorSimilarityWeight rerankModel chatModel freedom
  temperature topP presencePenalty frequencyPenalty maxTokens showQuote selfRag multiTurnRefine keywordExtraction tts createdBy createdAt updatedAt`;
const CREATE = `mutation Create($input: AssistantInput!) { createAssistant(input: $input) { ${ASSISTANT_FIELDS} } }`;
const UPDATE = `mutation Update($id: ID!, $input: AssistantInput!) { updateAssistant(id: $id, input: $input) { id name freedom temperature } }`;
const LIST = `query List($search: String) { assistants(search: $search) { total items { id name } } }`;
const GET = `query Get($id: ID!) { assistant(id: $id) { id name } }`;
const DELETE = `mutation Delete($ids: [ID!]!) { deleteAssistants(ids: $ids) }`;
const DEFAULTS = `query { assistantDefaults { language texts { language systemPrompt opener emptyResponse } freedomPresets { name temperature topP presencePenalty frequencyPenalty } } }`;
const SHARE = `mutation Share($id: ID!) { shareAssistant(assistantId: $id) { sharedId assistantId createdAt } }`;
const SHARE_OF = `query ShareOf($id: ID!) { assistantShare(assistantId: $id) { sharedId } }`;
const REVOKE = `mutation Revoke($id: ID!) { revokeAssistantShare(assistantId: $id) }`;
const SHARED = `query { sharedAssistant { id name avatar opener language tts } }`;
const STATISTICS = `query Stats($assistantId: ID, $from: String!, $to: String!, $timeZone: String) {
  chatStatistics(assistantId: $assistantId, from: $from, to: $to, timeZone: $timeZone) {
    messages { date value } activeUsers { date value } tokenOutputSpeed { date value } tokensConsumed { date value }
    sessionRounds { date value } satisfaction { date value }
    totals { messages activeUsers tokenOutputSpeed tokensConsumed sessionRounds satisfaction }
  }
}`;

interface Account {
  token: string;
  userId: string;
}

async function account(): Promise<Account> {
  const { token, userId } = await signUpAndIn(server);
  return { token, userId };
}

async function knowledgeBase(owner: Account): Promise<string> {
  const created = await server.graphql<{ createKnowledgeBase: { id: string } }>(
    `mutation Create($input: KnowledgeBaseInput!) { createKnowledgeBase(input: $input) { id } }`,
    { input: { name: `kb-${newId()}` } },
    owner.token,
  );
  const id = created.data!.createKnowledgeBase.id;
  // Counted as parsed, which is all an assistant asks of it; parsing itself is tested with ingestion.
  await server.platform.db.query(`UPDATE knowledge_base SET chunk_count = 2 WHERE id = $1`, [id]);
  return id;
}

async function assistant(owner: Account, name: string, kb: string): Promise<string> {
  const created = await server.graphql<{ createAssistant: { id: string } }>(CREATE, { input: { name, knowledgeBaseIds: [kb] } }, owner.token);
  if (!created.data) throw new Error(JSON.stringify(created.errors));
  return created.data.createAssistant.id;
}

describe("assistants over GraphQL", () => {
  it("creates with the defaults, lists, updates and deletes", async () => {
    const owner = await account();
    const kb = await knowledgeBase(owner);
    const { assistantDefaults } = (await server.graphql<{ assistantDefaults: Record<string, any> }>(DEFAULTS, {}, owner.token)).data!; // eslint-disable-line @typescript-eslint/no-explicit-any
    const defaults = assistantDefaults.texts.find((texts: { language: string }) => texts.language === "English");
    expect(defaults.systemPrompt).toContain("not found in the knowledge base");
    expect(assistantDefaults.freedomPresets.map((p: { name: string }) => p.name)).toEqual(["improvise", "precise", "balance"]);

    const created = await server.graphql<{ createAssistant: Record<string, unknown> }>(CREATE, { input: { name: "Desk", knowledgeBaseIds: [kb], freedom: "balance" } }, owner.token);
    expect(created.errors).toBeUndefined();
    expect(created.data!.createAssistant).toMatchObject({
      name: "Desk",
      avatar: null,
      description: "A helpful Assistant",
      systemPrompt: defaults.systemPrompt,
      opener: defaults.opener,
      emptyResponse: defaults.emptyResponse,
      knowledgeBaseIds: [kb],
      knowledgeBases: [{ id: kb, chunkCount: 2 }],
      promptVariables: [{ key: "knowledge", optional: false }],
      topN: 6,
      topK: 1024,
      freedom: "balance",
      temperature: 0.5,
      topP: 0.85,
      presencePenalty: 0.2,
      frequencyPenalty: 0.3,
      maxTokens: 512,
      chatModel: "cairn-extractive@Builtin",
      rerankModel: null,
      createdBy: owner.userId,
    });
    const id = created.data!.createAssistant.id as string;
    const updated = await server.graphql<{ updateAssistant: unknown }>(UPDATE, { id, input: { name: "Front desk", temperature: 0.6 } }, owner.token);
    expect(updated.data!.updateAssistant).toEqual({ id, name: "Front desk", freedom: "custom", temperature: 0.6 });
    expect((await server.graphql<{ assistants: unknown }>(LIST, { search: "front" }, owner.token)).data!.assistants).toEqual({ total: 1, items: [{ id, name: "Front desk" }] });
    expect((await server.graphql(DELETE, { ids: [id] }, owner.token)).data).toEqual({ deleteAssistants: true });
    expect((await server.graphql(GET, { id }, owner.token)).errors?.[0].extensions).toMatchObject({ code: "NOT_FOUND", messageKey: "errors.chat.notFound" });
  });

  it("gives a new assistant its texts in its language: the one asked for, else its creator's", async () => {
    const owner = await account();
    const kb = await knowledgeBase(owner);
    const chinese = await server.graphql<{ createAssistant: Record<string, string> }>(CREATE, { input: { name: "中文助理", knowledgeBaseIds: [kb], language: "Chinese" } }, owner.token);
    expect(chinese.data!.createAssistant).toMatchObject({
      language: "Chinese",
      opener: "你好！我是你的助理，有什么可以帮到你的吗？",
      emptyResponse: "抱歉！知识库中未找到相关内容！",
      systemPrompt: expect.stringContaining("知识库中未找到您要的答案！"),
    });
    expect(chinese.data!.createAssistant.systemPrompt).toContain("{knowledge}");

    await server.graphql(`mutation { updateProfile(input: { language: "zh-TRADITIONAL" }) { language } }`, {}, owner.token);
    const traditional = await server.graphql<{ createAssistant: Record<string, string> }>(CREATE, { input: { name: "繁體助理", knowledgeBaseIds: [kb] } }, owner.token);
    expect(traditional.data!.createAssistant).toMatchObject({ language: "Traditional Chinese", opener: "你好！我是你的助理，有什麼可以幫你的嗎？" });

    const { assistantDefaults } = (await server.graphql<{ assistantDefaults: { language: string; texts: { language: string; opener: string }[] } }>(DEFAULTS, {}, owner.token)).data!;
    expect(assistantDefaults.language).toBe("Traditional Chinese");
    expect(assistantDefaults.texts.find((texts) => texts.language === "Chinese")!.opener).toBe("你好！我是你的助理，有什么可以帮到你的吗？");
    // a language without texts of its own starts in English
    expect(assistantDefaults.texts.find((texts) => texts.language === "German")!.opener).toBe("Hi! I'm your assistant. What can I do for you?");
  });

  it("answers invalid input with the field messages of every bad field", async () => {
    const owner = await account();
    const result = await server.graphql(CREATE, { input: { name: "", temperature: 3, maxTokens: 0 } }, owner.token);
    expect(result.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", messageKey: "errors.chat.nameRequired" });
    expect(result.errors?.[0].extensions.fields.map((f: { field: string }) => f.field)).toEqual(["name", "knowledgeBaseIds", "temperature", "maxTokens"]);
  });

  it("a second tenant sees nothing of the first tenant's assistants", async () => {
    const owner = await account();
    const intruder = await account();
    const id = await assistant(owner, "Mine", await knowledgeBase(owner));
    expect((await server.graphql<{ assistants: { total: number } }>(LIST, {}, intruder.token)).data!.assistants.total).toBe(0);
    for (const [query, variables] of [
      [GET, { id }],
      [UPDATE, { id, input: { name: "Theirs" } }],
      [DELETE, { ids: [id] }],
      [SHARE_OF, { id }],
      [STATISTICS, { assistantId: id, from: "2026-01-01", to: "2026-01-02" }],
    ] as const) {
      expect((await server.graphql(query, variables, intruder.token)).errors?.[0].extensions.code).toBe("NOT_FOUND");
    }
  });
});

describe("a share token", () => {
  it("is given once the tenant has an API token, and opens only its own assistant", async () => {
    const owner = await account();
    const kb = await knowledgeBase(owner);
    const shared = await assistant(owner, "Public", kb);
    const other = await assistant(owner, "Internal", kb);

    const refused = await server.graphql(SHARE, { id: shared }, owner.token);
    expect(refused.errors?.[0]).toMatchObject({ message: "Please create API Token first!", extensions: { messageKey: "errors.createApiTokenFirst" } });
    await server.graphql(`mutation { createApiToken { token } }`, {}, owner.token);
    const share = (await server.graphql<{ shareAssistant: { sharedId: string; assistantId: string } }>(SHARE, { id: shared }, owner.token)).data!.shareAssistant;
    expect(share.assistantId).toBe(shared);
    expect((await server.graphql<{ assistantShare: unknown }>(SHARE_OF, { id: shared }, owner.token)).data!.assistantShare).toEqual({ sharedId: share.sharedId });
    expect((await server.graphql<{ assistantShare: unknown }>(SHARE_OF, { id: other }, owner.token)).data!.assistantShare).toBeNull();

    const visitor = share.sharedId;
    expect((await server.graphql<{ sharedAssistant: unknown }>(SHARED, {}, visitor)).data!.sharedAssistant).toEqual({
      id: shared,
      name: "Public",
      avatar: null,
      opener: "Hi! I'm your assistant. What can I do for you?",
      language: "English",
      tts: false,
    });
    // The share page offers the play button exactly when the assistant does.
    await server.graphql(UPDATE, { id: shared, input: { tts: true } }, owner.token);
    expect((await server.graphql<{ sharedAssistant: { tts: boolean } }>(SHARED, {}, visitor)).data!.sharedAssistant.tts).toBe(true);
    // Nothing of the tenant beyond that: not its knowledge bases, models, assistants, account or keys.
    for (const query of [
      `query { knowledgeBases { total } }`,
      `query { availableModels { id } }`,
      `query { defaultModels { chat } }`,
      `query { assistants { total } }`,
      `query { me { id } }`,
      `query { apiTokens { id } }`,
      `mutation { createApiToken { token } }`,
      `query { assistantDefaults { texts { opener } } }`,
    ]) {
      expect({ query, code: (await server.graphql(query, {}, visitor)).errors?.[0].extensions.code }).toEqual({ query, code: "UNAUTHENTICATED" });
    }
    for (const [query, variables] of [
      [GET, { id: other }],
      [GET, { id: shared }],
      [UPDATE, { id: shared, input: { name: "Hijacked" } }],
      [DELETE, { ids: [shared] }],
      [SHARE, { id: shared }],
      [SHARE_OF, { id: shared }],
      [REVOKE, { id: shared }],
      [STATISTICS, { assistantId: shared, from: "2026-01-01", to: "2026-01-01" }],
      [`mutation Create($input: AssistantInput!) { createAssistant(input: $input) { id } }`, { input: { name: "x", knowledgeBaseIds: [kb] } }],
    ] as const) {
      expect((await server.graphql(query, variables, visitor)).errors?.[0].extensions.code).toBe("UNAUTHENTICATED");
    }
    const conversations = await server.graphql(`query C($id: ID!) { conversations(assistantId: $id) { id } }`, { id: other }, visitor);
    expect(conversations.errors?.[0].extensions.code).toBeDefined();
    // Nor the REST facade: web routes answer 401, service routes want an API key.
    expect((await server.rest("GET", "/v1/user/tenant_info", { token: visitor })).status).toBe(401);
    expect((await server.rest("GET", "/api/v1/datasets", { token: visitor })).body).toMatchObject({ code: 109 });
    expect((await server.rest("GET", "/api/v1/chats", { token: visitor })).body).toMatchObject({ code: 109 });
    // A signed-in member is no share page.
    expect((await server.graphql(SHARED, {}, owner.token)).errors?.[0].extensions).toMatchObject({ code: "FORBIDDEN", messageKey: "errors.chat.shareOnly" });

    expect((await server.graphql(REVOKE, { id: shared }, owner.token)).data).toEqual({ revokeAssistantShare: true });
    expect((await server.graphql(SHARED, {}, visitor)).errors?.[0].extensions.code).toBe("UNAUTHENTICATED");
  });
});

describe("chat statistics", () => {
  async function conversation(tenantId: string, assistantId: string, userId: string, source: string, messages: Record<string, unknown>[]) {
    const id = newId();
    await server.platform.db.query(`INSERT INTO chat_conversation (id, assistant_id, tenant_id, user_id, source, name) VALUES ($1, $2, $3, $4, $5, 'c')`, [id, assistantId, tenantId, userId, source]);
    let position = 0;
    for (const m of messages) {
      await server.platform.db.query(
        `INSERT INTO chat_message (id, conversation_id, position, role, content, status, prompt_tokens, completion_tokens, duration_ms, feedback, created_at)
         VALUES ($1, $2, $3, $4, 'x', 'done', $5, $6, $7, $8, $9)`,
        [newId(), id, position++, m.role, m.prompt ?? 0, m.completion ?? 0, m.duration ?? null, m.thumb ? JSON.stringify({ thumb: m.thumb }) : null, m.at],
      );
    }
  }

  it("counts questions, people, speed, tokens, rounds and satisfaction per day of the range", async () => {
    const owner = await account();
    const stranger = await account();
    const kb = await knowledgeBase(owner);
    const a = await assistant(owner, "A", kb);
    const b = await assistant(owner, "B", kb);
    const theirs = await assistant(stranger, "S", await knowledgeBase(stranger));
    const at = (date: string, time = "10:00") => `${date}T${time}:00Z`;
    await conversation(owner.userId, a, "u1", "web", [
      { role: "assistant", at: at("2026-01-10", "09:59") }, // the opener: neither a question nor tokens
      { role: "user", at: at("2026-01-10") },
      { role: "assistant", prompt: 50, completion: 100, duration: 2000, thumb: "up", at: at("2026-01-10") },
      { role: "user", at: at("2026-01-10", "11:00") },
      { role: "assistant", prompt: 30, completion: 50, duration: 3000, thumb: "down", at: at("2026-01-10", "11:00") },
    ]);
    await conversation(owner.userId, a, "visitor-1", "share", [
      { role: "user", at: at("2026-01-10", "23:59") },
      { role: "assistant", prompt: 5, completion: 10, at: at("2026-01-10", "23:59") }, // failed before timing: no speed
    ]);
    await conversation(owner.userId, a, "u1", "web", [
      { role: "user", at: at("2026-01-12") },
      { role: "assistant", prompt: 10, completion: 30, duration: 1000, thumb: "up", at: at("2026-01-12") },
    ]);
    await conversation(owner.userId, b, "u3", "api", [
      { role: "user", at: at("2026-01-10") },
      { role: "assistant", prompt: 1, completion: 1, duration: 1000, at: at("2026-01-10") },
    ]);
    await conversation(stranger.userId, theirs, "u9", "web", [{ role: "user", at: at("2026-01-10") }]);
    await conversation(owner.userId, a, "u1", "web", [{ role: "user", at: at("2026-01-13") }]); // outside the range

    const stats = (await server.graphql<{ chatStatistics: any }>(STATISTICS, { assistantId: a, from: "2026-01-10", to: "2026-01-12" }, owner.token)).data!.chatStatistics; // eslint-disable-line @typescript-eslint/no-explicit-any
    const series = (values: number[]) => ["2026-01-10", "2026-01-11", "2026-01-12"].map((date, i) => ({ date, value: values[i] }));
    expect(stats.messages).toEqual(series([3, 0, 1]));
    expect(stats.activeUsers).toEqual(series([2, 0, 1]));
    expect(stats.tokenOutputSpeed).toEqual(series([30, 0, 30]));
    expect(stats.tokensConsumed).toEqual(series([245, 0, 40]));
    expect(stats.sessionRounds).toEqual(series([1.5, 0, 1]));
    expect(stats.satisfaction).toEqual(series([0.5, 0, 1]));
    expect(stats.totals).toEqual({ messages: 4, activeUsers: 2, tokenOutputSpeed: 30, tokensConsumed: 285, sessionRounds: 1.33, satisfaction: 0.6667 });

    const all = (await server.graphql<{ chatStatistics: any }>(STATISTICS, { from: "2026-01-10", to: "2026-01-10" }, owner.token)).data!.chatStatistics; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(all.totals).toMatchObject({ messages: 4, activeUsers: 3, tokensConsumed: 247 });
    const strangers = (await server.graphql<{ chatStatistics: any }>(STATISTICS, { from: "2026-01-10", to: "2026-01-10" }, stranger.token)).data!.chatStatistics; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(strangers.totals.messages).toBe(1);
  });

  it("counts the days of the viewer's time zone, daylight saving included", async () => {
    const owner = await account();
    const a = await assistant(owner, "A", await knowledgeBase(owner));
    // 23:30 UTC on 28 March is 00:30 on the 29th in Paris (UTC+1, before the clocks change that night);
    // 22:30 UTC on 29 March is 00:30 on the 30th (UTC+2, after).
    await conversation(owner.userId, a, "u1", "web", [
      { role: "user", at: "2026-03-28T23:30:00Z" },
      { role: "user", at: "2026-03-29T22:30:00Z" },
    ]);
    const days = async (timeZone?: string) => {
      const stats = (await server.graphql<{ chatStatistics: any }>(STATISTICS, { assistantId: a, from: "2026-03-28", to: "2026-03-30", timeZone }, owner.token)).data!.chatStatistics; // eslint-disable-line @typescript-eslint/no-explicit-any
      return stats.messages.map((point: { value: number }) => point.value);
    };
    expect(await days()).toEqual([1, 1, 0]);
    expect(await days("UTC")).toEqual([1, 1, 0]);
    expect(await days("Europe/Paris")).toEqual([0, 1, 1]);
    const unknown = await server.graphql(STATISTICS, { from: "2026-03-28", to: "2026-03-30", timeZone: "Mars/Olympus" }, owner.token);
    expect(unknown.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", messageKey: "errors.chat.timeZoneInvalid" });
  });

  it("refuses dates that are not days or a range that ends before it starts", async () => {
    const owner = await account();
    for (const [from, to] of [
      ["2026-13-01", "2026-12-31"],
      ["2026-02-30", "2026-03-01"],
      ["2026-03-02", "2026-03-01"],
      ["yesterday", "today"],
    ]) {
      const result = await server.graphql(STATISTICS, { from, to }, owner.token);
      expect(result.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", messageKey: "errors.chat.dateInvalid" });
    }
    const long = await server.graphql(STATISTICS, { from: "2024-01-01", to: "2026-01-01" }, owner.token);
    expect(long.errors?.[0].extensions).toMatchObject({ messageKey: "errors.chat.dateRangeTooLong", params: { max: 366 } });
  });
});
