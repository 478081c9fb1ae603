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
