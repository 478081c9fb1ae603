import { signUpAndIn, startTestServer, type TestServer } from "../testing/app";

const CREATE = `mutation { createApiToken { token apiToken { id hint createdAt } } }`;
const LIST = `query { apiTokens { id hint createdAt lastUsedAt } }`;
const DELETE = `mutation Delete($id: ID!) { deleteApiToken(id: $id) }`;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

interface Created {
  createApiToken: { token: string; apiToken: { id: string; hint: string; createdAt: string } };
}

describe("API tokens", () => {
  it("shows the whole token once, then only its hint and creation time", async () => {
    const { token: session } = await signUpAndIn(server);
    const created = (await server.graphql<Created>(CREATE, {}, session)).data!.createApiToken;
    expect(created.token).toMatch(/^ragflow-[A-Za-z0-9_-]{43}$/);
    expect(created.apiToken.hint).toBe(`${created.token.slice(0, 12)}…${created.token.slice(-4)}`);
    const listed = await server.graphql<{ apiTokens: Record<string, unknown>[] }>(LIST, {}, session);
    expect(listed.data!.apiTokens).toEqual([{ ...created.apiToken, lastUsedAt: null }]);
    expect(JSON.stringify(listed)).not.toContain(created.token);
  });

  it("stores only a hash of the token", async () => {
    const { token: session, userId } = await signUpAndIn(server);
    const { token } = (await server.graphql<Created>(CREATE, {}, session)).data!.createApiToken;
    const rows = await server.platform.db.query(`SELECT * FROM api_token WHERE tenant_id = $1`, [userId]);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token.slice(8));
  });

  it("lists the newest first", async () => {
    const { token: session } = await signUpAndIn(server);
    const first = (await server.graphql<Created>(CREATE, {}, session)).data!.createApiToken.apiToken.id;
    const second = (await server.graphql<Created>(CREATE, {}, session)).data!.createApiToken.apiToken.id;
    const listed = await server.graphql<{ apiTokens: { id: string }[] }>(LIST, {}, session);
    expect(listed.data!.apiTokens.map((t) => t.id)).toEqual([second, first]);
  });

  it("stops authenticating a deleted token", async () => {
    const { token: session } = await signUpAndIn(server);
    const created = (await server.graphql<Created>(CREATE, {}, session)).data!.createApiToken;
    expect((await server.rest("GET", "/v1/user/tenant_info", { token: created.token })).body.code).toBe(0);
    expect((await server.graphql(DELETE, { id: created.apiToken.id }, session)).data).toEqual({ deleteApiToken: true });
    expect((await server.rest("GET", "/v1/user/tenant_info", { token: created.token })).status).toBe(401);
  });

  it("a second tenant can neither see nor delete the first tenant's tokens", async () => {
    const owner = await signUpAndIn(server);
    const intruder = await signUpAndIn(server);
    const created = (await server.graphql<Created>(CREATE, {}, owner.token)).data!.createApiToken;
    expect((await server.graphql<{ apiTokens: unknown[] }>(LIST, {}, intruder.token)).data!.apiTokens).toEqual([]);
    const attempt = await server.graphql(DELETE, { id: created.apiToken.id }, intruder.token);
    expect(attempt.errors?.[0].extensions).toMatchObject({ code: "NOT_FOUND", messageKey: "errors.apiTokenNotFound" });
    expect((await server.graphql<{ apiTokens: unknown[] }>(LIST, {}, owner.token)).data!.apiTokens).toHaveLength(1);
  });

  it("cannot be created or listed anonymously", async () => {
    expect((await server.graphql(CREATE)).errors?.[0].extensions.code).toBe("UNAUTHENTICATED");
    expect((await server.graphql(LIST)).errors?.[0].extensions.code).toBe("UNAUTHENTICATED");
  });
});

describe("an API key is a service-API credential", () => {
  const ADD_MODEL = `mutation Add($input: ModelEntryInput!) { addModelEntry(input: $input) { id } }`;
  const MODEL_ENTRIES = `query { modelEntries { id } }`;
  const entryInput = { provider: "OpenAI-API-Compatible", modelName: "local-chat", modelType: "chat", credentials: [{ name: "baseUrl", value: "http://127.0.0.1:9/v1" }] };
  let session: string;
  let apiKey: string;
  let apiKeyId: string;
  let entryId: string;

  beforeAll(async () => {
    session = (await signUpAndIn(server)).token;
    const created = (await server.graphql<Created>(CREATE, {}, session)).data!.createApiToken;
    apiKey = created.token;
    apiKeyId = created.apiToken.id;
    entryId = (await server.graphql<{ addModelEntry: { id: string } }>(ADD_MODEL, { input: entryInput }, session)).data!.addModelEntry.id;
  });

  const forbidden: [string, string, () => Record<string, unknown>][] = [
    ["create an API key", CREATE, () => ({})],
    ["delete an API key", DELETE, () => ({ id: apiKeyId })],
    [
      "change the password",
      `mutation Change($input: ChangePasswordInput!) { changePassword(input: $input) }`,
      () => ({ input: { currentPassword: "correct horse battery", newPassword: "stolen key's choice", confirmPassword: "stolen key's choice", revokeApiKeys: false } }),
    ],
    ["add a model entry", ADD_MODEL, () => ({ input: { ...entryInput, modelName: "another" } })],
    [
      "point a model entry elsewhere",
      `mutation Update($id: ID!, $input: ModelEntryUpdate!) { updateModelEntry(id: $id, input: $input) { id } }`,
      () => ({ id: entryId, input: { credentials: [{ name: "baseUrl", value: "http://attacker.example/v1" }] } }),
    ],
    ["delete a model entry", `mutation Delete($id: ID!) { deleteModelEntry(id: $id) }`, () => ({ id: entryId })],
    ["test a model connection", `mutation Test($id: ID) { testModelConnection(entryId: $id) { ok } }`, () => ({ id: entryId })],
    ["set the system models", `mutation Set($input: DefaultModelsInput!) { setDefaultModels(input: $input) { chat } }`, () => ({ input: { chat: "local-chat@OpenAI-API-Compatible" } })],
  ];

  it.each(forbidden)("cannot %s over GraphQL", async (_action, mutation, variables) => {
    const response = await server.graphql(mutation, variables(), apiKey);
    expect(response.errors?.[0].extensions).toMatchObject({ code: "FORBIDDEN", httpStatus: 403 });
    expect(response.errors?.[0].extensions.messageKey).toMatch(/^errors\.apiKeyCannot\./);
  });

  it("changed nothing while refused, and still reads and writes the workspace's data", async () => {
    expect((await server.graphql<{ apiTokens: unknown[] }>(LIST, {}, session)).data!.apiTokens).toHaveLength(1);
    expect((await server.graphql<{ modelEntries: { id: string }[] }>(MODEL_ENTRIES, {}, session)).data!.modelEntries).toEqual([{ id: entryId }]);
    expect((await server.graphql<{ me: { email: string } }>(`query { me { email } }`, {}, apiKey)).errors).toBeUndefined();
    const kb = await server.graphql(`mutation { createKnowledgeBase(input: { name: "by script" }) { id } }`, {}, apiKey);
    expect(kb.errors).toBeUndefined();
  });

  it("cannot mint a key over RAGFlow's web API either, which a session still can", async () => {
    const byKey = await server.rest("POST", "/v1/system/new_token", { token: apiKey });
    expect(byKey.body).toMatchObject({ code: 108, data: null });
    const bySession = await server.rest("POST", "/v1/system/new_token", { authorization: session });
    expect(bySession.body.code).toBe(0);
    expect(bySession.body.data.token).toMatch(/^ragflow-/);
  });
});

describe("an API key's expiry", () => {
  const CREATE_EXPIRING = `mutation Create($input: ApiTokenInput) { createApiToken(input: $input) { token apiToken { id expiresAt } } }`;

  it("is stored and listed", async () => {
    const { token: session } = await signUpAndIn(server);
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const created = await server.graphql<{ createApiToken: { apiToken: { id: string; expiresAt: string } } }>(CREATE_EXPIRING, { input: { expiresAt } }, session);
    expect(created.data!.createApiToken.apiToken.expiresAt).toBe(expiresAt);
    const never = await server.graphql<{ createApiToken: { apiToken: { expiresAt: string | null } } }>(CREATE_EXPIRING, {}, session);
    expect(never.data!.createApiToken.apiToken.expiresAt).toBeNull();
    const listed = await server.graphql<{ apiTokens: { expiresAt: string | null }[] }>(`query { apiTokens { expiresAt } }`, {}, session);
    expect(listed.data!.apiTokens.map((t) => t.expiresAt)).toEqual([null, expiresAt]);
  });

  it("must lie in the future", async () => {
    const { token: session } = await signUpAndIn(server);
    const response = await server.graphql(CREATE_EXPIRING, { input: { expiresAt: new Date(Date.now() - 1000).toISOString() } }, session);
    expect(response.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", messageKey: "errors.apiTokenExpiryInvalid" });
  });

  it("once passed, the key authenticates as nobody: RAGFlow's auth error on REST, UNAUTHENTICATED on GraphQL", async () => {
    const { token: session } = await signUpAndIn(server);
    const created = await server.graphql<{ createApiToken: { token: string; apiToken: { id: string } } }>(
      CREATE_EXPIRING,
      { input: { expiresAt: new Date(Date.now() + 60_000).toISOString() } },
      session,
    );
    const { token, apiToken } = created.data!.createApiToken;
    expect((await server.rest("GET", "/api/v1/datasets", { token })).body.code).toBe(0);
    // The clock cannot be moved inside the server, so the key is made to have expired a moment ago.
    await server.platform.db.query(`UPDATE api_token SET expires_at = now() - interval '1 second' WHERE id = $1`, [apiToken.id]);
    expect((await server.rest("GET", "/api/v1/datasets", { token })).body).toEqual({ code: 109, message: "Authentication error: API key is invalid!", data: false });
    expect((await server.rest("GET", "/v1/user/tenant_info", { token })).status).toBe(401);
    expect((await server.graphql(`query { me { id } }`, {}, token)).errors?.[0].extensions.code).toBe("UNAUTHENTICATED");
  });
});
