import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { signUpAndIn, startTestServer, type TestServer } from "../testing/app";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

function wsClient(authorization?: string): Client {
  return createClient({
    url: `${server.url.replace("http", "ws")}/graphql`,
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
