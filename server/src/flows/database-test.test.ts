import { sharedTestServer, startTestServer, type HttpTestServer, type TestServer } from "../testing/app";
import { startPostgresServer, type TestPostgresServer } from "../testing/postgres-server";
import { freePort } from "../testing/processes";
import { apiUser, type ApiUser } from "../testing/rest-support";
import { sketchFlow } from "./testing/run-flow";

/**
 * The ExeSQL node's Test button (testFlowDatabaseConnection) against a real PostgreSQL: the form's values over the
 * saved ones, the saved password when the form leaves it empty (only at the saved address), a closed port and a
 * refused password told in the user's terms, the flows' outbound policy, and only the flow's editors may test.
 */

let postgres: TestPostgresServer;
let server: TestServer;
let owner: ApiUser;
let stranger: ApiUser;
let flowId: string;

const TEST = `mutation($flowId: ID!, $componentId: String!, $params: JSONObject!) {
  testFlowDatabaseConnection(flowId: $flowId, componentId: $componentId, params: $params) { ok latencyMs message messageKey params }
}`;
const SQL_NODE = "ExeSQL:Shop";

const test_ = async (user: ApiUser, params: Record<string, unknown>, componentId = SQL_NODE) => server.graphql<Record<string, any>>(TEST, { flowId, componentId, params }, user.token); // eslint-disable-line @typescript-eslint/no-explicit-any
const result = async (params: Record<string, unknown>) => {
  const response = await test_(owner, params);
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  return response.data.testFlowDatabaseConnection as { ok: boolean; messageKey: string | null; params: Record<string, unknown> | null; message: string | null };
};

beforeAll(async () => {
  [postgres, server] = await Promise.all([startPostgresServer(), startTestServer({ FLOW_PRIVATE_ADDRESSES: "true" })]);
  await postgres.admin("CREATE ROLE reader LOGIN PASSWORD 'reader-secret'");
  await postgres.admin("CREATE DATABASE shop OWNER reader");
  [owner, stranger] = [await apiUser(server), await apiUser(server)];
  const saved = { db_type: "postgresql", host: postgres.host, port: postgres.port, database: "shop", username: "reader", password: "reader-secret" };
  const dsl = sketchFlow({ begin: { name: "Begin", down: [SQL_NODE] }, [SQL_NODE]: { name: "ExeSQL", params: saved } });
  const created = await server.graphql<Record<string, any>>(`mutation($input: CreateFlowInput!) { createFlow(input: $input) { id } }`, { input: { title: "Shop", dsl } }, owner.token); // eslint-disable-line @typescript-eslint/no-explicit-any
  if (!created.data) throw new Error(JSON.stringify(created.errors));
  flowId = created.data.createFlow.id;
}, 120_000);

afterAll(async () => {
  await Promise.all([server?.close(), postgres?.stop()]);
});

describe("testFlowDatabaseConnection", () => {
  it("connects with the saved password when the form leaves it empty", async () => {
    expect(await result({ password: "" })).toMatchObject({ ok: true, messageKey: null });
    expect(await result({})).toMatchObject({ ok: true });
  });

  it("tests the form's own values over the saved ones, and names a refused password", async () => {
    expect(await result({ password: "wrong" })).toMatchObject({ ok: false, messageKey: "flow.components.ExeSQL.errors.credentials", params: { username: "reader", database: "shop" } });
    expect(await result({ database: "nowhere" })).toMatchObject({ ok: false, messageKey: "flow.components.ExeSQL.errors.credentials" });
  });

  it("never sends the saved password to another address", async () => {
    // The same server under another name: the saved password stays home, and the server refuses an empty one.
    expect(await result({ host: postgres.host, password: "" })).toMatchObject({ ok: true });
    expect(await result({ host: "localhost", password: "" })).toMatchObject({ ok: false });
    expect(await result({ host: "localhost", password: "reader-secret" })).toMatchObject({ ok: true });
  });

  it("says a closed port cannot be reached", async () => {
    const closed = await freePort();
    const answer = await result({ port: closed });
    expect(answer).toMatchObject({ ok: false, messageKey: "flow.components.ExeSQL.errors.unreachable", params: { host: postgres.host, port: closed } });
    expect(answer.message).toContain(`${postgres.host}:${closed}`);
  });

  it("is refused for a component that is not an ExeSQL, and for someone who may not edit the flow", async () => {
    const begin = await test_(owner, {}, "begin");
    expect(begin.errors?.[0].extensions?.messageKey).toBe("flow.errors.componentNotFound");
    const foreign = await test_(stranger, {});
    expect(foreign.errors?.[0].extensions?.code).toBe("NOT_FOUND");
  });
});

describe("testFlowDatabaseConnection with the default outbound policy", () => {
  it("refuses a private address, as runs do", async () => {
    // the worker's server, which has the default policy
    const closedServer: HttpTestServer = await sharedTestServer();
    const user = await apiUser(closedServer);
    const dsl = sketchFlow({ begin: { name: "Begin", down: [SQL_NODE] }, [SQL_NODE]: { name: "ExeSQL", params: { db_type: "postgresql", host: postgres.host, port: postgres.port, database: "shop", username: "reader", password: "reader-secret" } } });
    const created = await closedServer.graphql<Record<string, any>>(`mutation($input: CreateFlowInput!) { createFlow(input: $input) { id } }`, { input: { title: "Private", dsl } }, user.token); // eslint-disable-line @typescript-eslint/no-explicit-any
    const answer = await closedServer.graphql<Record<string, any>>(TEST, { flowId: created.data!.createFlow.id, componentId: SQL_NODE, params: {} }, user.token); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(answer.data?.testFlowDatabaseConnection).toMatchObject({ ok: false });
    expect(answer.data?.testFlowDatabaseConnection.messageKey).toBe("errors.outbound.addressRefused");
  }, 60_000);
});
