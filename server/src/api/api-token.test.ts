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
