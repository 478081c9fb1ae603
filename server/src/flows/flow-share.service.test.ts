import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { sharedTestServer, signUpAndIn, type HttpTestServer } from "../testing/app";
import { apiUser, type ApiUser } from "../testing/rest-support";
import { sketchFlow } from "./testing/run-flow";

/**
 * Shared flows (spec §2, API publishing), as shared assistants: a visitor holding the share token runs that one flow
 * in their own sessions and reaches nothing else; a revoked token stops working at once.
 */

let server: HttpTestServer;
let owner: ApiUser;

const ECHO = sketchFlow({
  begin: {
    name: "Begin",
    params: { prologue: "Welcome, visitor!", query: [{ key: "city", name: "City", type: "line", optional: true, options: [] }] },
    down: ["Answer:talk"],
  },
  "Answer:talk": { name: "Answer", down: ["Template:echo"] },
  "Template:echo": { name: "Template", params: { content: "You said: {sys.query}" }, down: ["Answer:talk"] },
});

type Response = { data?: Record<string, any> | null; errors?: { message: string; extensions?: Record<string, unknown> }[] }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A GraphQL request with the share token as bearer, as the share page sends it, and the page's visitor id. */
async function asVisitor(sharedId: string, visitorId: string | null, query: string, variables: Record<string, unknown> = {}): Promise<Response> {
  const response = await fetch(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${sharedId}`, ...(visitorId ? { "x-visitor-id": visitorId } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as Response;
}

const gql = (token: string, query: string, variables: Record<string, unknown> = {}) => server.graphql<Record<string, any>>(query, variables, token); // eslint-disable-line @typescript-eslint/no-explicit-any
const codeOf = (response: Response) => response.errors?.[0]?.extensions?.code;

const START = `mutation($flowId: ID!, $input: StartFlowRunInput!) { startFlowRun(flowId: $flowId, input: $input) { run { id status steps { componentId } } session { id source userId } } }`;
const SESSIONS = `query($flowId: ID!) { flowSessions(flowId: $flowId) { id userId messages { role content } } }`;

/** The run's events as the visitor's page receives them over graphql-ws, until its last. */
async function watch(sharedId: string, visitorId: string, runId: string): Promise<{ type: string; delta: string | null; output: unknown }[]> {
  const client = createClient({
    url: `${server.url.replace("http", "ws")}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${sharedId}`, "x-visitor-id": visitorId },
    retryAttempts: 0,
  });
  const events: { type: string; delta: string | null; output: unknown }[] = [];
  try {
    const query = `subscription($runId: ID!) { flowRunEvents(runId: $runId) { type delta output } }`;
    for await (const result of client.iterate<{ flowRunEvents: { type: string; delta: string | null; output: unknown } }>({ query, variables: { runId } })) {
      if (result.errors) throw new Error(JSON.stringify(result.errors));
      events.push(result.data!.flowRunEvents);
      if (["run_finished", "run_failed", "run_cancelled"].includes(result.data!.flowRunEvents.type)) break;
    }
  } finally {
    await client.dispose();
  }
  return events;
}

async function createFlow(token: string, title: string, dsl: unknown = ECHO): Promise<string> {
  const created = await gql(token, `mutation($input: CreateFlowInput!) { createFlow(input: $input) { id } }`, { input: { title, dsl } });
  if (!created.data) throw new Error(JSON.stringify(created.errors));
  return created.data.createFlow.id;
}

async function share(token: string, flowId: string): Promise<string> {
  const shared = await gql(token, `mutation($flowId: ID!) { shareFlow(flowId: $flowId) { sharedId flowId } }`, { flowId });
  if (!shared.data) throw new Error(JSON.stringify(shared.errors));
  return shared.data.shareFlow.sharedId;
}

beforeAll(async () => {
  server = await sharedTestServer();
  owner = await apiUser(server);
});
afterAll(() => server.close());

describe("sharing a flow", () => {
  it("needs an API key of the tenant first, then gives the same share each time until it is revoked", async () => {
    const { token } = await signUpAndIn(server);
    const flowId = await createFlow(token, "No key yet");
    const refused = await gql(token, `mutation($flowId: ID!) { shareFlow(flowId: $flowId) { sharedId } }`, { flowId });
    expect(refused.errors?.[0].extensions?.messageKey).toBe("errors.createApiTokenFirst");

    const ownerFlow = await createFlow(owner.token, "Shared twice");
    expect((await gql(owner.token, `query($flowId: ID!) { flowShare(flowId: $flowId) { sharedId } }`, { flowId: ownerFlow })).data!.flowShare).toBeNull();
    const first = await share(owner.token, ownerFlow);
    expect(await share(owner.token, ownerFlow)).toBe(first);
    expect((await gql(owner.token, `query($flowId: ID!) { flowShare(flowId: $flowId) { sharedId } }`, { flowId: ownerFlow })).data!.flowShare.sharedId).toBe(first);
  });

  it("shows the visitor the flow's title, Begin's greeting and the inputs it asks for", async () => {
    const flowId = await createFlow(owner.token, "Greeter");
    const sharedId = await share(owner.token, flowId);
    const shared = await asVisitor(sharedId, "v-greeted", `{ sharedFlow { id title prologue inputs { key name type optional options } } }`);
    expect(shared.data!.sharedFlow).toEqual({ id: flowId, title: "Greeter", prologue: "Welcome, visitor!", inputs: [{ key: "city", name: "City", type: "line", optional: true, options: [] }] });
    // Another credential is not a shared flow's page.
    expect(codeOf(await gql(owner.token, `{ sharedFlow { id } }`))).toBe("FORBIDDEN");
  });
});

describe("a visitor of a shared flow", () => {
  let flowId: string;
  let sharedId: string;

  beforeAll(async () => {
    flowId = await createFlow(owner.token, "Visited");
    sharedId = await share(owner.token, flowId);
  });

  it("runs the shared flow, streamed, and continues their own session", async () => {
    const started = await asVisitor(sharedId, "alice", START, { flowId, input: { message: "hello", inputs: { city: "Lisbon" } } });
    expect(started.errors).toBeUndefined();
    const { run, session } = started.data!.startFlowRun;
    expect(session).toMatchObject({ source: "share", userId: "alice" });
    // The visitor sees what the flow says, not what its components read and gave.
    expect(run.steps).toEqual([]);
    const events = await watch(sharedId, "alice", run.id);
    expect(events.filter((e) => e.type === "message").map((e) => e.delta).join("")).toBe("You said: hello");
    expect(events.at(-1)).toMatchObject({ type: "run_finished" });
    expect(events.every((e) => e.output === null)).toBe(true);

    const next = await asVisitor(sharedId, "alice", START, { flowId, input: { message: "again", sessionId: session.id } });
    expect(next.data!.startFlowRun.session.id).toBe(session.id);
    await watch(sharedId, "alice", next.data!.startFlowRun.run.id);
    const read = await asVisitor(sharedId, "alice", `query($id: ID!) { flowSession(id: $id) { messages { role content } } }`, { id: session.id });
    expect(read.data!.flowSession.messages.map((m: { content: string }) => m.content)).toEqual(["hello", "You said: hello", "again", "You said: again"]);
  });

  it("sees only their own sessions; another visitor's session is not found", async () => {
    const alices = await asVisitor(sharedId, "alice-2", START, { flowId, input: { message: "mine" } });
    const aliceSession = alices.data!.startFlowRun.session.id;
    await watch(sharedId, "alice-2", alices.data!.startFlowRun.run.id);
    const bobs = await asVisitor(sharedId, "bob", START, { flowId, input: { message: "his" } });
    await watch(sharedId, "bob", bobs.data!.startFlowRun.run.id);

    const listed = (await asVisitor(sharedId, "alice-2", SESSIONS, { flowId })).data!.flowSessions;
    expect(listed.map((s: { id: string; userId: string }) => [s.id, s.userId])).toEqual([[aliceSession, "alice-2"]]);
    expect(codeOf(await asVisitor(sharedId, "bob", `query($id: ID!) { flowSession(id: $id) { id } }`, { id: aliceSession }))).toBe("NOT_FOUND");
    expect(codeOf(await asVisitor(sharedId, "bob", START, { flowId, input: { message: "into hers", sessionId: aliceSession } }))).toBe("NOT_FOUND");
    expect(codeOf(await asVisitor(sharedId, "bob", `query($id: ID!) { flowRun(id: $id) { id } }`, { id: alices.data!.startFlowRun.run.id }))).toBe("NOT_FOUND");
    await expect(watch(sharedId, "bob", alices.data!.startFlowRun.run.id)).rejects.toThrow(/NOT_FOUND/);
    // A page that does not say who its visitor is starts nothing and lists nothing.
    expect(codeOf(await asVisitor(sharedId, null, START, { flowId, input: { message: "who?" } }))).toBe("BAD_USER_INPUT");
    expect((await asVisitor(sharedId, null, SESSIONS, { flowId })).data!.flowSessions).toEqual([]);
    // The flow's members still see every session of it.
    const members = (await gql(owner.token, SESSIONS, { flowId })).data!.flowSessions.map((s: { userId: string }) => s.userId);
    expect(members).toEqual(expect.arrayContaining(["alice-2", "bob"]));
  });

  it("reaches no other flow, and cannot read or change the shared one", async () => {
    const other = await createFlow(owner.token, "Not shared");
    expect(codeOf(await asVisitor(sharedId, "alice", START, { flowId: other, input: { message: "hi" } }))).toBe("NOT_FOUND");
    expect(codeOf(await asVisitor(sharedId, "alice", SESSIONS, { flowId: other }))).toBe("NOT_FOUND");
    const edit = `mutation($id: ID!) { updateFlow(id: $id, input: { title: "Taken over" }) { id } }`;
    expect(codeOf(await asVisitor(sharedId, "alice", edit, { id: flowId }))).toBe("UNAUTHENTICATED");
    expect(codeOf(await asVisitor(sharedId, "alice", `query($id: ID!) { flow(id: $id) { dsl } }`, { id: flowId }))).toBe("UNAUTHENTICATED");
    expect(codeOf(await asVisitor(sharedId, "alice", `mutation($flowId: ID!) { revokeFlowShare(flowId: $flowId) }`, { flowId }))).toBe("UNAUTHENTICATED");
    // Nor is it a shared assistant's token.
    expect(codeOf(await asVisitor(sharedId, "alice", `{ sharedAssistant { id } }`))).toBe("FORBIDDEN");
  });

  it("is refused everything once the share is revoked", async () => {
    const flow = await createFlow(owner.token, "Revoked");
    const token = await share(owner.token, flow);
    const started = await asVisitor(token, "carol", START, { flowId: flow, input: { message: "before" } });
    await watch(token, "carol", started.data!.startFlowRun.run.id);
    expect((await gql(owner.token, `mutation($flowId: ID!) { revokeFlowShare(flowId: $flowId) }`, { flowId: flow })).data!.revokeFlowShare).toBe(true);
    expect(codeOf(await asVisitor(token, "carol", `{ sharedFlow { id } }`))).toBe("UNAUTHENTICATED");
    expect(codeOf(await asVisitor(token, "carol", START, { flowId: flow, input: { message: "after" } }))).toBe("UNAUTHENTICATED");
    expect(codeOf(await asVisitor(token, "carol", SESSIONS, { flowId: flow }))).toBe("UNAUTHENTICATED");
    // Sharing again gives a new token; the old one stays dead.
    expect(await share(owner.token, flow)).not.toBe(token);
  });
});
