import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import type { SignedIn } from "../policies/principal";
import type { Platform } from "../platform";
import { startTestServer, type TestServer } from "../testing/app";
import { apiUser, type ApiUser } from "../testing/rest-support";
import { FlowRunService } from "./flow-run.service";
import type { RunTurn } from "./run-types";

/**
 * Runs of flows: each turn a job on the queue with its steps and events stored, an interaction answered by the next
 * turn of the same session, cancellation before and during a run, debugging one component without touching the
 * flow, runs hidden from other tenants, and a subscriber that comes after the run still reads all of it.
 */

let server: TestServer;
let owner: ApiUser;
let stranger: ApiUser;

const gql = <T = Record<string, any>>(user: ApiUser, query: string, variables: Record<string, unknown> = {}) => server.graphql<T>(query, variables, user.token); // eslint-disable-line @typescript-eslint/no-explicit-any
const codeOf = (response: { errors?: readonly { extensions?: Record<string, unknown> }[] }) => response.errors?.[0]?.extensions?.code;

const RUN_FIELDS = `id status message answer error tokens sessionId steps { seq componentId componentName error }`;
const START = `mutation($flowId: ID!, $input: StartFlowRunInput!) { startFlowRun(flowId: $flowId, input: $input) { run { ${RUN_FIELDS} } session { id } } }`;
const EVENTS = `subscription($runId: ID!, $after: Int) { flowRunEvents(runId: $runId, after: $after) { seq type componentId delta status error } }`;

interface Received {
  seq: number;
  type: string;
  componentId: string | null;
  delta: string | null;
  status: string | null;
  error: string | null;
}

const wsClient = (user: ApiUser): Client =>
  createClient({ url: `${server.url.replace("http", "ws")}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${user.token}` }, retryAttempts: 0 });

/** Every event of the run for a subscriber that connects now, until the run's last. */
async function watch(user: ApiUser, runId: string, after?: number): Promise<Received[]> {
  const client = wsClient(user);
  const events: Received[] = [];
  try {
    for await (const result of client.iterate<{ flowRunEvents: Received }>({ query: EVENTS, variables: { runId, after } })) {
      if (result.errors) throw new Error(JSON.stringify(result.errors));
      events.push(result.data!.flowRunEvents);
      if (["run_finished", "run_failed", "run_cancelled"].includes(result.data!.flowRunEvents.type)) break;
    }
  } finally {
    await client.dispose();
  }
  return events;
}

async function createFlow(user: ApiUser, title: string, dsl?: unknown): Promise<string> {
  const created = await gql(user, `mutation($input: CreateFlowInput!) { createFlow(input: $input) { id } }`, { input: { title, dsl } });
  if (!created.data) throw new Error(JSON.stringify(created.errors));
  return created.data.createFlow.id;
}

async function start(user: ApiUser, flowId: string, input: Record<string, unknown> = {}) {
  const started = await gql(user, START, { flowId, input });
  if (!started.data) throw new Error(JSON.stringify(started.errors));
  return started.data.startFlowRun as { run: { id: string; status: string }; session: { id: string } };
}

/** The run once it ended, read after its last event. */
async function ended(user: ApiUser, runId: string) {
  await watch(user, runId);
  return (await gql(user, `query($id: ID!) { flowRun(id: $id) { ${RUN_FIELDS} } }`, { id: runId })).data!.flowRun;
}

beforeAll(async () => {
  server = await startTestServer();
  [owner, stranger] = [await apiUser(server), await apiUser(server)];
});
afterAll(() => server.close());

describe("runs on a scripted engine (the run service's own work)", () => {
  let principal: SignedIn;
  let runs: FlowRunService;
  /** A turn that starts a component and then waits until it is cancelled. */
  const untilCancelled: RunTurn = async (_flow, state, _request, options) => {
    options.emit({ type: "node_started", componentId: "begin", componentName: "Begin" });
    if (!options.signal.aborted) await new Promise((resolve) => options.signal.addEventListener("abort", resolve, { once: true }));
    return { state: { ...state, path: [...state.path, ["begin"]] }, status: "cancelled", answer: "" };
  };

  beforeAll(async () => {
    principal = (await server.services.principalFor(`Bearer ${owner.token}`)) as SignedIn;
    // Its jobs go nowhere: the test runs them itself, when it wants.
    const platform: Platform = { ...server.services.platform, queue: { ...server.services.platform.queue, enqueue: async (_name, _payload, options) => options?.jobId ?? "" } };
    runs = new FlowRunService(platform, { platform, models: server.services.models, retrieval: server.services.retrieval, flows: server.services.flows, runTurn: untilCancelled });
  });

  it("cancels a queued run, which then never starts", async () => {
    const flowId = await createFlow(owner, "Cancel before start");
    const { run } = await runs.start(principal, flowId, { message: "hello" });
    expect(run.status).toBe("queued");
    const cancelled = (await gql(owner, `mutation($id: ID!) { cancelFlowRun(id: $id) { status finishedAt } }`, { id: run.id })).data!.cancelFlowRun;
    expect(cancelled.status).toBe("cancelled");
    await runs.execute({ runId: run.id, principal });
    expect((await runs.get(principal, run.id)).status).toBe("cancelled");
    expect((await watch(owner, run.id)).map((e) => e.type)).toEqual(["run_cancelled"]);
  });

  it("cancels a running run where it is, leaving the session's state as it was", async () => {
    const flowId = await createFlow(owner, "Cancel while running");
    const { run, session } = await runs.start(principal, flowId, { message: "hello" });
    const executing = runs.execute({ runId: run.id, principal });
    const events = server.services.flowRuns.events(principal, run.id);
    for await (const event of await events) if (event.type === "node_started") break;
    const cancelled = await runs.cancel(principal, run.id);
    await executing;
    expect(cancelled.status).toBe("cancelled");
    expect((await watch(owner, run.id)).map((e) => e.type)).toEqual(["run_started", "node_started", "run_cancelled"]);
    const after = await runs.session(principal, session.id);
    expect(after.state.path).toEqual([]);
    expect(after.messages.map((m) => [m.role, m.content])).toEqual([["user", "hello"]]);
  });

  it("refuses a second turn in a session while one is under way", async () => {
    const flowId = await createFlow(owner, "One at a time");
    const { session } = await runs.start(principal, flowId, { message: "first" });
    await expect(runs.start(principal, flowId, { message: "second", sessionId: session.id })).rejects.toMatchObject({ kind: "CONFLICT", messageKey: "flow.errors.sessionBusy" });
  });
});

describe("who sees runs", () => {
  it("gives another tenant not-found for the flow's runs, sessions and events", async () => {
    const flowId = await createFlow(owner, "Private runs");
    const { run, session } = await start(owner, flowId);
    await ended(owner, run.id);
    expect(codeOf(await gql(stranger, START, { flowId, input: {} }))).toBe("NOT_FOUND");
    expect(codeOf(await gql(stranger, START, { flowId, input: { sessionId: session.id } }))).toBe("NOT_FOUND");
    expect(codeOf(await gql(stranger, `query($id: ID!) { flowRun(id: $id) { id } }`, { id: run.id }))).toBe("NOT_FOUND");
    expect(codeOf(await gql(stranger, `mutation($id: ID!) { cancelFlowRun(id: $id) { id } }`, { id: run.id }))).toBe("NOT_FOUND");
    expect(codeOf(await gql(stranger, `query($id: ID!) { flowRuns(flowId: $id) { id } }`, { id: flowId }))).toBe("NOT_FOUND");
    expect(codeOf(await gql(stranger, `query($id: ID!) { flowSessions(flowId: $id) { id } }`, { id: flowId }))).toBe("NOT_FOUND");
    expect(codeOf(await gql(stranger, `query($id: ID!) { flowSession(id: $id) { id } }`, { id: session.id }))).toBe("NOT_FOUND");
    await expect(watch(stranger, run.id)).rejects.toThrow("NOT_FOUND");
  });
});
