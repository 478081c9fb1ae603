import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import type { SignedIn } from "../policies/principal";
import type { Platform } from "../platform";
import { startTestServer, type TestServer } from "../testing/app";
import { apiUser, type ApiUser } from "../testing/rest-support";
import { PARSE_JOB, parseJob } from "../knowledge/parse.job";
import { DEFAULT_PROLOGUE } from "./components/core/begin";
import { FlowRunService } from "./flow-run.service";
import { flowPorts } from "./run-ports";
import { sketchFlow } from "./testing/run-flow";
import type { RunTurn } from "./run-types";
import type { SequencedRunEvent } from "./events";

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
  let platform: Platform;
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
    platform = { ...server.services.platform, queue: { ...server.services.platform.queue, enqueue: async (_name, _payload, options) => options?.jobId ?? "" } };
    runs = new FlowRunService(platform, { platform, models: server.services.models, retrieval: server.services.retrieval, flows: server.services.flows, runTurn: untilCancelled });
  });

  it("cancels a queued run, which then never starts", async () => {
    const flowId = await createFlow(owner, "Cancel before start");
    const { run } = await runs.start(principal, flowId, { message: "hello" });
    expect(run).toMatchObject({ status: "queued", createdAt: expect.any(Date) });
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
    // A watcher who comes in the middle of the run reads it from its first event on.
    const late = watch(owner, run.id);
    const cancelled = await runs.cancel(principal, run.id);
    await executing;
    expect(cancelled.status).toBe("cancelled");
    expect((await late).map((e) => e.type)).toEqual(["run_started", "node_started", "run_cancelled"]);
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

  it("streams a run started watched from its first event to its last, each once and in order, and stores the same events and steps", async () => {
    // A turn that speaks in many deltas over several database round trips, so that its events are written in several batches.
    const talking: RunTurn = async (_flow, state, _request, options) => {
      options.emit({ type: "node_started", componentId: "Generate:0", componentName: "Generate" });
      for (let i = 0; i < 12; i++) {
        options.emit({ type: "message", componentId: "Generate:0", delta: `t${i} ` });
        await server.services.platform.db.query(`SELECT pg_sleep(0.02)`);
      }
      options.emit({ type: "node_finished", componentId: "Generate:0", componentName: "Generate", inputs: [], output: { content: "said" }, error: null, elapsedMs: 1, tokens: 3 });
      return { state, status: "finished", answer: "said" };
    };
    const talkingRuns = new FlowRunService(platform, { platform, models: server.services.models, retrieval: server.services.retrieval, flows: server.services.flows, runTurn: talking });
    const flowId = await createFlow(owner, "Watched from the start");
    const { run, events } = await talkingRuns.startWatched(principal, flowId, { message: "hello" });
    const executing = talkingRuns.execute({ runId: run.id, principal });
    const streamed = [];
    for await (const event of events) streamed.push(event);
    await executing;
    expect(streamed.map((e) => e.seq)).toEqual(streamed.map((_e, i) => i + 1));
    expect(streamed.map((e) => e.type)).toEqual(["run_started", "node_started", ...Array(12).fill("message"), "node_finished", "message_end", "run_finished"]);
    expect(streamed.flatMap((e) => (e.type === "message" ? [e.delta] : [])).join("")).toBe(Array.from({ length: 12 }, (_v, i) => `t${i} `).join(""));
    // A watcher who comes after the end reads the same events back from the store, and the step is stored.
    expect((await watch(owner, run.id)).map((e) => [e.seq, e.type, e.delta])).toEqual(streamed.map((e) => [e.seq, e.type, e.type === "message" ? e.delta : null]));
    expect((await talkingRuns.stepsOf([run.id])).get(run.id)!.map((s) => [s.seq, s.componentId, s.tokens, s.output])).toEqual([[1, "Generate:0", 3, { content: "said" }]]);
  });

  it("stores the runs in flight together by shared statements, and a run whose events cannot be stored costs no other run its record", async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const gated: RunTurn = async (_flow, state, _request, options) => {
      options.emit({ type: "node_started", componentId: "Generate:0", componentName: "Generate" });
      await gate;
      for (let i = 0; i < 4; i++) options.emit({ type: "message", componentId: "Generate:0", delta: `t${i} ` });
      options.emit({ type: "node_finished", componentId: "Generate:0", componentName: "Generate", inputs: [], output: { content: "said" }, error: null, elapsedMs: 1, tokens: 2 });
      return { state, status: "finished", answer: "said" };
    };
    const gatedRuns = new FlowRunService(platform, { platform, models: server.services.models, retrieval: server.services.retrieval, flows: server.services.flows, runTurn: gated });
    const { db } = server.services.platform;
    const writes: string[] = [];
    const query = db.query.bind(db);
    db.query = ((sql: string, parameters?: unknown[]) => {
      if (sql.startsWith("WITH steps AS")) writes.push(JSON.stringify(parameters));
      return query(sql, parameters);
    }) as typeof db.query;
    try {
      const [lost, kept] = await Promise.all(["Deleted mid-run", "Kept"].map(async (title) => gatedRuns.startWatched(principal, await createFlow(owner, title), { message: "hello" })));
      const executing = [lost, kept].map(({ run }) => gatedRuns.execute({ runId: run.id, principal }).catch((error: Error) => error));
      const [lostEvents, keptEvents] = [lost, kept].map(({ events }) => events[Symbol.asyncIterator]());
      const told: SequencedRunEvent[] = [];
      for (let event = await keptEvents.next(); !event.done; event = await keptEvents.next()) {
        told.push(event.value);
        if (event.value.type === "node_started") break;
      }
      while ((await lostEvents.next()).value?.type !== "node_started");
      // Both are under way; one of them is deleted before it says the rest, which can then never be stored.
      await server.services.platform.db.query(`DELETE FROM flow_run WHERE id = $1`, [lost.run.id]);
      void lostEvents.return?.(undefined);
      open();
      for (let event = await keptEvents.next(); !event.done; event = await keptEvents.next()) told.push(event.value);
      const [lostOutcome, keptOutcome] = await Promise.all(executing);
      expect(lostOutcome).toBeInstanceOf(Error);
      expect(keptOutcome).toBeUndefined();
      expect(writes.some((w) => w.includes(lost.run.id) && w.includes(kept.run.id))).toBe(true);
      expect(told.map((e) => e.type)).toEqual(["run_started", "node_started", ...Array(4).fill("message"), "node_finished", "message_end", "run_finished"]);
      expect((await watch(owner, kept.run.id)).map((e) => [e.seq, e.type])).toEqual(told.map((e) => [e.seq, e.type]));
      expect((await gatedRuns.stepsOf([kept.run.id])).get(kept.run.id)!.map((s) => s.componentId)).toEqual(["Generate:0"]);
    } finally {
      db.query = query;
    }
  });

  it("stores a run whose component said U+0000, which the database's text cannot hold, as U+FFFD", async () => {
    const raw: RunTurn = async (_flow, state, _request, options) => {
      options.emit({ type: "message", componentId: "Generate:0", delta: "raw \u0000 bytes" });
      return { state, status: "finished", answer: "raw \u0000 bytes" };
    };
    const rawRuns = new FlowRunService(platform, { platform, models: server.services.models, retrieval: server.services.retrieval, flows: server.services.flows, runTurn: raw });
    const flowId = await createFlow(owner, "Raw bytes");
    const { run } = await rawRuns.start(principal, flowId, { message: "hello" });
    await rawRuns.execute({ runId: run.id, principal });
    expect(await rawRuns.get(principal, run.id)).toMatchObject({ status: "finished", answer: "raw \uFFFD bytes" });
    expect((await watch(owner, run.id)).flatMap((e) => (e.type === "message" ? [e.delta] : []))).toEqual(["raw \uFFFD bytes"]);
  });

  it("fails a run that could not be queued, so that its session takes messages again", async () => {
    const broken: Platform = { ...platform, queue: { ...platform.queue, enqueue: () => Promise.reject(new Error("queue down")) } };
    const brokenRuns = new FlowRunService(broken, { platform: broken, models: server.services.models, retrieval: server.services.retrieval, flows: server.services.flows, runTurn: untilCancelled });
    const flowId = await createFlow(owner, "Not queued");
    await expect(brokenRuns.startWatched(principal, flowId, { message: "lost" })).rejects.toThrow("queue down");
    const [run] = await runs.list(principal, flowId);
    expect(run.status).toBe("failed");
    expect((await watch(owner, run.id)).map((e) => e.type)).toEqual(["run_failed"]);
    await expect(runs.start(principal, flowId, { message: "again", sessionId: run.sessionId })).resolves.toBeDefined();
  });

  it("fails the runs a stopped server left open, with a reason, so that their sessions take messages again", async () => {
    const flowId = await createFlow(owner, "Interrupted");
    const { run, session } = await runs.start(principal, flowId, { message: "lost" });
    expect(await server.services.flowRuns.closeInterruptedRuns()).toBeGreaterThanOrEqual(1);
    expect(await runs.get(principal, run.id)).toMatchObject({ status: "failed", error: "The server stopped while this run was under way. Send your message again." });
    expect((await watch(owner, run.id)).map((e) => e.type)).toEqual(["run_failed"]);
    await expect(runs.start(principal, flowId, { message: "again", sessionId: session.id })).resolves.toBeDefined();
  });
});

/** Begin speaks its prologue; then each message is echoed back and the flow waits again (a back-edge to the Answer). */
const ECHO = sketchFlow({
  begin: { name: "Begin", params: { prologue: "Welcome!" }, down: ["Answer:talk"] },
  "Answer:talk": { name: "Answer", down: ["Template:echo"] },
  "Template:echo": { name: "Template", params: { content: "You said: {sys.query}" }, down: ["Answer:talk"] },
});

describe("runs through the job queue, on the engine", () => {
  it("runs a turn as a job and stores it with its steps: a blank flow speaks Begin's prologue, and ends as nothing follows its Answer", async () => {
    const flowId = await createFlow(owner, "Blank run");
    const saved = (await gql(owner, `query($id: ID!) { flow(id: $id) { updatedAt } }`, { id: flowId })).data!.flow.updatedAt;
    const { run } = await start(owner, flowId);
    expect(run.status).toBe("queued");
    const done = await ended(owner, run.id);
    expect(done).toMatchObject({ status: "finished", answer: DEFAULT_PROLOGUE, error: null });
    expect(done.steps.map((s: { componentName: string }) => s.componentName)).toEqual(["Begin", "Answer"]);
    expect(done.steps.map((s: { seq: number }) => s.seq)).toEqual([1, 2]);
    const listed = (await gql(owner, `query($id: ID!) { flowRuns(flowId: $id) { id steps { componentId } } flow(id: $id) { lastRunAt } }`, { id: flowId })).data!;
    expect(listed.flowRuns.map((r: { id: string }) => r.id)).toEqual([run.id]);
    expect(listed.flowRuns[0].steps).toHaveLength(2);
    expect(listed.flow.lastRunAt).not.toBeNull();
    // Running is not saving: the editor's "Autosaved <time>" stays.
    expect((await gql(owner, `query($id: ID!) { flow(id: $id) { updatedAt } }`, { id: flowId })).data!.flow.updatedAt).toBe(saved);
  });

  it("pauses at the Answer and resumes with the next startFlowRun in the same session", async () => {
    const flowId = await createFlow(owner, "Echo", ECHO);
    const first = await start(owner, flowId);
    expect((await ended(owner, first.run.id)).answer).toBe("Welcome!");
    const second = await start(owner, flowId, { sessionId: first.session.id, message: "hello" });
    expect(second.session.id).toBe(first.session.id);
    const resumed = await ended(owner, second.run.id);
    expect(resumed).toMatchObject({ status: "waiting", answer: "You said: hello", message: "hello" });
    expect(resumed.steps.map((s: { componentId: string }) => s.componentId)).toEqual(["Template:echo", "Answer:talk"]);
    const third = await start(owner, flowId, { sessionId: first.session.id, message: "again" });
    expect((await ended(owner, third.run.id)).answer).toBe("You said: again");
    const session = (await gql(owner, `query($id: ID!) { flowSession(id: $id) { messages { role content runId } } }`, { id: first.session.id })).data!.flowSession;
    expect(session.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ["assistant", "Welcome!"],
      ["user", "hello"],
      ["assistant", "You said: hello"],
      ["user", "again"],
      ["assistant", "You said: again"],
    ]);
    // Re-running the last turn from a component, in the same session.
    const rerun = await start(owner, flowId, { sessionId: first.session.id, fromComponent: "Template:echo" });
    expect((await ended(owner, rerun.run.id)).answer).toBe("You said: again");
  });

  it("answers a first message at once: a session never run is greeted silently first, as RAGFlow's session API does", async () => {
    const flowId = await createFlow(owner, "Asked at once", ECHO);
    const { run } = await start(owner, flowId, { message: "straight away" });
    const done = await ended(owner, run.id);
    expect(done).toMatchObject({ status: "waiting", answer: "You said: straight away" });
    expect(done.steps.map((s: { componentId: string }) => s.componentId)).toEqual(["begin", "Template:echo", "Answer:talk"]);
  });

  it("gives a subscriber who connects after the run every event from the first, in order, once", async () => {
    const flowId = await createFlow(owner, "Watched late", ECHO);
    const first = await start(owner, flowId);
    await ended(owner, first.run.id);
    const { run } = await start(owner, flowId, { sessionId: first.session.id, message: "late" });
    await ended(owner, run.id);
    const events = await watch(owner, run.id);
    expect(events.map((e) => e.seq)).toEqual(events.map((_e, i) => i + 1));
    expect(events.map((e) => e.type)).toEqual([
      "run_started",
      ...events.slice(1, -3).map((e) => e.type),
      "message_end",
      "waiting_for_input",
      "run_finished",
    ]);
    expect(events.filter((e) => e.type === "node_finished").map((e) => e.componentId)).toEqual(["Template:echo", "Answer:talk"]);
    expect(events.filter((e) => e.type === "message").map((e) => e.delta).join("")).toBe("You said: late");
    expect(events.find((e) => e.type === "waiting_for_input")!.componentId).toBe("Answer:talk");
    expect(events.at(-1)!.status).toBe("waiting");
    // Reconnecting after the third event: the rest, from the fourth.
    expect((await watch(owner, run.id, 3)).map((e) => e.seq)).toEqual(events.slice(3).map((e) => e.seq));
  });

  it("debugs one component on given values, leaving the flow, its versions and its runs as they were", async () => {
    const flowId = await createFlow(owner, "Debugged", ECHO);
    const READ = `query($id: ID!) { flow(id: $id) { updatedAt dsl } flowVersions(flowId: $id) { id } flowRuns(flowId: $id) { id } }`;
    const before = (await gql(owner, READ, { id: flowId })).data!;
    const DEBUG = `mutation($flowId: ID!, $input: DebugFlowComponentInput!) { debugFlowComponent(flowId: $flowId, input: $input) { componentName output said error } }`;
    const saved = (await gql(owner, DEBUG, { flowId, input: { componentId: "Template:echo", values: { "sys.query": "a test" } } })).data!.debugFlowComponent;
    expect(saved).toMatchObject({ componentName: "Template", output: { content: "You said: a test" }, error: null });
    const edited = (await gql(owner, DEBUG, { flowId, input: { componentId: "Template:echo", params: { content: "Edited: {sys.query}" }, values: { "sys.query": "b" } } })).data!.debugFlowComponent;
    expect(edited.output.content).toBe("Edited: b");
    expect((await gql(owner, READ, { id: flowId })).data).toEqual(before);
    const unknown = await gql(owner, DEBUG, { flowId, input: { componentId: "Nope:1" } });
    expect(codeOf(unknown)).toBe("BAD_USER_INPUT");
  });

  it("refuses to run a flow that does not validate, naming the problem", async () => {
    const flowId = await createFlow(owner, "No begin", sketchFlow({ "Answer:a": { name: "Answer" } }));
    const refused = await gql(owner, START, { flowId, input: {} });
    expect(codeOf(refused)).toBe("BAD_USER_INPUT");
    expect(refused.errors![0].extensions!.messageKey).toBe("flow.errors.beginMissing");
    // A Retrieval with no knowledge base would search nothing at every turn: the run is refused at that field.
    const unsearched = await createFlow(owner, "No knowledge base", sketchFlow({ begin: { name: "Begin", down: ["Retrieval:kb"] }, "Retrieval:kb": { name: "Retrieval", params: { kb_ids: [] } } }));
    const blocked = await gql(owner, START, { flowId: unsearched, input: {} });
    expect(codeOf(blocked)).toBe("BAD_USER_INPUT");
    expect(blocked.errors![0].extensions).toMatchObject({ messageKey: "flow.components.Retrieval.errors.noKnowledgeBase" });
  });
});

describe("a run beside background work", () => {
  it("finishes while long parse jobs hold every background slot, which keep their line", async () => {
    // Parse jobs that hold their slot until released: the test server has JOB_CONCURRENCY's default of 2.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const started: string[] = [];
    const waiting = new Set<() => void>();
    const untilStarted = (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => started.length >= count && (waiting.delete(check), resolve());
        waiting.add(check);
        check();
      });
    const holdParse = jest.spyOn(parseJob, "run").mockImplementation(async ({ documentId }) => {
      started.push(documentId);
      for (const check of [...waiting]) check();
      await held;
    });
    const { queue } = server.services.platform;
    try {
      for (const id of ["doc-1", "doc-2", "doc-3"]) await queue.enqueue(PARSE_JOB, { documentId: id, runId: "held" }, { jobId: `held-parse-${id}` });
      await untilStarted(2);

      const flowId = await createFlow(owner, "Beside parsing");
      const { run } = await start(owner, flowId);

      expect(await ended(owner, run.id)).toMatchObject({ status: "finished", answer: DEFAULT_PROLOGUE });
      expect(started).toEqual(["doc-1", "doc-2"]);
      expect(Object.fromEntries(await queue.waitingPositions(["held-parse-doc-1", "held-parse-doc-3"]))).toEqual({ "held-parse-doc-3": 1 });
    } finally {
      release();
    }
    await untilStarted(3);
    holdParse.mockRestore();
  });
});

describe("the ports of a run", () => {
  it("answers with the tenant's default chat model when a flow names one the tenant lacks, and says so", async () => {
    const principal = (await server.services.principalFor(`Bearer ${owner.token}`)) as SignedIn;
    const notes: string[] = [];
    const ports = flowPorts(server.services, principal, notes);
    await expect(ports.chatModel("deepseek-chat@DeepSeek")).resolves.toBeDefined();
    expect(notes).toEqual([expect.stringContaining("deepseek-chat@DeepSeek")]);
    // FLOW_PRIVATE_ADDRESSES is off by default: a flow cannot reach the server's own network.
    await expect(ports.fetch("http://127.0.0.1:9/")).rejects.toMatchObject({ messageKey: "errors.outbound.addressRefused" });
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
