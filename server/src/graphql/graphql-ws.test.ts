import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { LOGIN, signUpAndIn, startTestServer, type TestServer } from "../testing/app";
import { startRedis, type TestRedis } from "../testing/redis";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

function wsClient(authorization?: string, target: TestServer = server): Client {
  return createClient({
    url: `${target.url.replace("http", "ws")}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: authorization ? { authorization } : {},
    retryAttempts: 0,
  });
}

async function once(client: Client, query: string): Promise<{ data?: unknown; errors?: { extensions?: Record<string, unknown> }[] }> {
  try {
    const iterator = client.iterate({ query });
    const { value } = await iterator.next();
    await iterator.return?.();
    return value as never;
  } finally {
    await client.dispose();
  }
}

describe("graphql-ws", () => {
  it("authenticates with the session token from the connection parameters", async () => {
    const { token, email } = await signUpAndIn(server);
    expect(await once(wsClient(`Bearer ${token}`), "{ me { email } }")).toEqual({ data: { me: { email } } });
  });

  it("treats a connection without a token as anonymous, with the same error format as HTTP", async () => {
    const result = await once(wsClient(), "{ me { email } }");
    expect(result.errors?.[0].extensions).toMatchObject({ code: "UNAUTHENTICATED", httpStatus: 401, messageKey: "errors.unauthenticated" });
  });

  it("refuses an operation whose variables hold U+0000, which nothing can store, with the same translated error as HTTP", async () => {
    const { token } = await signUpAndIn(server);
    const client = wsClient(`Bearer ${token}`);
    try {
      const iterator = client.iterate({ query: `mutation($i: KnowledgeBaseInput!) { createKnowledgeBase(input: $i) { id } }`, variables: { i: { name: "a\u0000b" } } });
      const refused = await iterator.next().then(
        () => null,
        (errors: { message: string; extensions?: Record<string, unknown> }[]) => errors,
      );
      expect(refused?.[0]).toMatchObject({ message: "Text cannot contain the NUL character (U+0000). Remove it and try again.", extensions: { messageKey: "errors.nulCharacter", code: "BAD_USER_INPUT" } });
    } finally {
      await client.dispose();
    }
    expect((await server.graphql<{ knowledgeBases: { total: number } }>(`{ knowledgeBases { total } }`, {}, token)).data?.knowledgeBases.total).toBe(0);
  });
});

describe("an open subscription ends when its credential is revoked", () => {
  const PROGRESS = `subscription Progress($id: ID!) { documentProgress(knowledgeBaseId: $id) { documentId } }`;

  interface Watch {
    client: Client;
    /** Settles with the close code the server ended the subscription with, or "completed" when it ended without one. */
    ended: Promise<number | "completed">;
    settled: () => boolean;
  }

  /** Subscribes to a knowledge base's progress with `authorization`, and waits until the server has authenticated the socket. */
  async function watch(authorization: string, knowledgeBaseId: string, target: TestServer = server): Promise<Watch> {
    const client = wsClient(authorization, target);
    let settled = false;
    const ended = new Promise<number | "completed">((resolve, reject) => {
      client.subscribe(
        { query: PROGRESS, variables: { id: knowledgeBaseId } },
        {
          next: () => undefined,
          error: (error) => {
            settled = true;
            if ((error as { code?: number }).code !== undefined) resolve((error as { code: number }).code);
            else reject(new Error(`the subscription failed otherwise: ${JSON.stringify(error)}`));
          },
          complete: () => {
            settled = true;
            resolve("completed");
          },
        },
      );
    });
    // A query on the same socket: once it is answered, the socket is known under its credential.
    const iterator = client.iterate({ query: "{ me { id } }" });
    const { value } = await iterator.next();
    await iterator.return?.();
    expect((value as { errors?: unknown }).errors).toBeUndefined();
    return { client, ended, settled: () => settled };
  }

  async function knowledgeBase(session: string, target: TestServer = server): Promise<string> {
    const created = await target.graphql<{ createKnowledgeBase: { id: string } }>(`mutation { createKnowledgeBase(input: { name: "watched" }) { id } }`, {}, session);
    return created.data!.createKnowledgeBase.id;
  }

  it("when its session signs out, and not the other sessions of the user", async () => {
    const { token, email, password } = await signUpAndIn(server);
    const other = (await server.graphql<{ login: { token: string } }>(LOGIN, { input: { email, password } })).data!.login.token;
    const kb = await knowledgeBase(token);
    const signingOut = await watch(`Bearer ${token}`, kb);
    const staying = await watch(`Bearer ${other}`, kb);
    expect((await server.graphql(`mutation { logout }`, {}, token)).data).toEqual({ logout: true });
    expect(await signingOut.ended).toBe(4401);
    expect(staying.settled()).toBe(false);
    await Promise.all([signingOut.client.dispose(), staying.client.dispose()]);
  });

  it("when a password change ends its session", async () => {
    const { token, email, password } = await signUpAndIn(server);
    const other = (await server.graphql<{ login: { token: string } }>(LOGIN, { input: { email, password } })).data!.login.token;
    const kb = await knowledgeBase(token);
    const ended = await watch(`Bearer ${other}`, kb);
    const newPassword = "a new password here";
    const change = `mutation Change($input: ChangePasswordInput!) { changePassword(input: $input) }`;
    expect((await server.graphql(change, { input: { currentPassword: password, newPassword, confirmPassword: newPassword } }, token)).errors).toBeUndefined();
    expect(await ended.ended).toBe(4401);
    await ended.client.dispose();
  });

  it("when its API key is deleted", async () => {
    const { token } = await signUpAndIn(server);
    const kb = await knowledgeBase(token);
    const created = await server.graphql<{ createApiToken: { token: string; apiToken: { id: string } } }>(`mutation { createApiToken { token apiToken { id } } }`, {}, token);
    const { token: apiKey, apiToken } = created.data!.createApiToken;
    const script = await watch(`Bearer ${apiKey}`, kb);
    expect((await server.graphql(`mutation Delete($id: ID!) { deleteApiToken(id: $id) }`, { id: apiToken.id }, token)).data).toEqual({ deleteApiToken: true });
    expect(await script.ended).toBe(4401);
    await script.client.dispose();
  });

  it("when its API key expires", async () => {
    const { token } = await signUpAndIn(server);
    const kb = await knowledgeBase(token);
    const expiresAt = new Date(Date.now() + 3000).toISOString();
    const created = await server.graphql<{ createApiToken: { token: string } }>(
      `mutation Create($input: ApiTokenInput) { createApiToken(input: $input) { token } }`,
      { input: { expiresAt } },
      token,
    );
    const script = await watch(`Bearer ${created.data!.createApiToken.token}`, kb);
    expect(await script.ended).toBe(4401);
    expect(Date.now()).toBeGreaterThanOrEqual(new Date(expiresAt).getTime());
    await script.client.dispose();
  });

  describe("with the pub/sub on Redis, as between server processes", () => {
    let redis: TestRedis;
    let scaled: TestServer;
    beforeAll(async () => {
      redis = await startRedis();
      scaled = await startTestServer({ REDIS_URL: redis.url });
    });
    afterAll(async () => {
      await scaled.close();
      await redis.stop();
    });

    it("when its session signs out", async () => {
      const { token } = await signUpAndIn(scaled);
      const watched = await watch(`Bearer ${token}`, await knowledgeBase(token, scaled), scaled);
      expect((await scaled.graphql(`mutation { logout }`, {}, token)).data).toEqual({ logout: true });
      expect(await watched.ended).toBe(4401);
      await watched.client.dispose();
    });
  });
});

/** A raw socket speaking graphql-ws, to send what a well-behaved client never would. */
function rawSocket(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${server.url.replace("http", "ws")}/graphql`, "graphql-transport-ws");
    socket.once("open", () => resolve(socket));
    socket.once("error", reject);
  });
}

const closeCode = (socket: WebSocket) => new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));

describe("graphql-ws limits", () => {
  it("closes an unauthenticated socket that sends a 2 MB message, before reading it (1009: message too big)", async () => {
    const socket = await rawSocket();
    const closed = closeCode(socket);
    socket.send(JSON.stringify({ type: "connection_init", payload: { padding: "x".repeat(2 * 1024 * 1024) } }));
    expect(await closed).toBe(1009);
  });

  it("closes a socket that never initialises its connection (4408)", async () => {
    const socket = await rawSocket();
    expect(await closeCode(socket)).toBe(4408);
  });

  it("refuses an operation over the budget, as HTTP does, before it runs", async () => {
    const { token } = await signUpAndIn(server);
    const search = jest.spyOn(server.services.retrieval, "search");
    try {
      const retrieve = `retrieve(input: { question: "wind", knowledgeBaseIds: ["00000000-0000-0000-0000-000000000000"] }) { total hits { chunk { id } } }`;
      const aliased = await once(wsClient(`Bearer ${token}`), `{ ${Array.from({ length: 30 }, (_, i) => `r${i}: ${retrieve}`).join(" ")} }`).catch((errors) => ({ errors }));
      expect(aliased.errors?.[0].extensions).toMatchObject({ code: "QUERY_BUDGET_EXCEEDED", messageKey: "errors.graphql.tooManyAliases" });
      const costly = await once(wsClient(`Bearer ${token}`), `{ ${Array.from({ length: 12 }, (_, i) => `r${i}: ${retrieve}`).join(" ")} }`).catch((errors) => ({ errors }));
      expect(costly.errors?.[0].extensions).toMatchObject({ code: "QUERY_BUDGET_EXCEEDED", messageKey: "errors.graphql.tooCostly" });
      const subscription = await once(
        wsClient(`Bearer ${token}`),
        `subscription { documentProgress(knowledgeBaseId: "00000000-0000-0000-0000-000000000000") { ${Array.from({ length: 21 }, (_, i) => `d${i}: documentId`).join(" ")} } }`,
      ).catch((errors) => ({ errors }));
      expect(subscription.errors?.[0].extensions).toMatchObject({ code: "QUERY_BUDGET_EXCEEDED", messageKey: "errors.graphql.tooManyAliases" });
      expect(search).not.toHaveBeenCalled();
    } finally {
      search.mockRestore();
    }
  });
});
