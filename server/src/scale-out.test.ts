import fs from "node:fs";
import Redis from "ioredis";
import { createClient, type Client } from "graphql-ws";
import { Client as PgClient } from "pg";
import WebSocket from "ws";
import { RUN } from "./knowledge/document.entity";
import { checkPacedText, startPacedOpenAiServer, type PacedServer } from "./models/testing/paced-openai-server";
import { graphqlOverHttp } from "./testing/graphql-http";
import { startScaleOutStack, type ScaleOutStack, type StackServer } from "./testing/scale-out-stack";

/**
 * The scale-out proof (README "Production set-up"): two servers and two workers over Redis, one PostgreSQL-protocol
 * database and one S3 server. Whatever one process starts, a subscriber on another server sees, and killing a
 * server or a worker in the middle of the work loses nothing.
 */

/** The paced model's answer: long enough to kill a server while it streams (3 s). */
const ANSWER_TOKENS = 120;
const PASSWORD = "correct horse battery";

let stack: ScaleOutStack;
let serverA: StackServer;
let serverB: StackServer;
let token: string;
let db: PgClient;
let redis: Redis;
const clients: Client[] = [];

beforeAll(async () => {
  stack = await startScaleOutStack({ model: { answerTokens: ANSWER_TOKENS, tokensPerSecond: 40 } });
  [serverA, serverB] = stack.servers;
  db = new PgClient({ connectionString: stack.postgres.url });
  await db.connect();
  redis = new Redis(stack.redis.url);
  const email = `scale-out-${Date.now()}@example.com`;
  await graphql(serverA, `mutation($input: RegisterInput!) { register(input: $input) { user { id } } }`, { input: { email, nickname: "scale", password: PASSWORD } });
  // Signed in through A, the session works on B: sessions are rows of the shared database.
  token = (await graphql<{ login: { token: string } }>(serverB, `mutation($input: LoginInput!) { login(input: $input) { token } }`, { input: { email, password: PASSWORD } })).login.token;
}, 180_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  redis?.disconnect();
  await db?.end();
  await stack?.stop();
});

function graphql<T = Record<string, never>>(server: StackServer, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  return graphqlOverHttp<T>(server.url, query, variables, token);
}

function wsClient(server: StackServer): Client {
  const client = createClient({ url: `${server.url.replace("http", "ws")}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
  clients.push(client);
  return client;
}

interface Subscription<T> {
  events: T[];
  /** Resolves with every event so far once `done` holds for them; rejects when the subscription ends first or the time runs out. */
  until(done: (events: T[]) => boolean, what: string, timeoutMs?: number): Promise<T[]>;
  /** Settles when the server ends the subscription (complete) or it breaks (error). */
  ended: Promise<{ error?: unknown }>;
}

/** Subscribes on `server` and keeps every event of the field `field`. */
function subscribe<T>(server: StackServer, field: string, query: string, variables: Record<string, unknown>): Subscription<T> {
  const events: T[] = [];
  const waiters = new Set<() => void>();
  let end: { error?: unknown } | undefined;
  const changed = () => {
    for (const waiter of waiters) waiter();
  };
  const ended = new Promise<{ error?: unknown }>((resolve) => {
    wsClient(server).subscribe<Record<string, T>>(
      { query, variables },
      {
        next: ({ data, errors }) => {
          if (errors) end = { error: errors };
          if (data?.[field]) events.push(data[field]);
          changed();
        },
        error: (error) => {
          end = { error };
          resolve(end);
          changed();
        },
        complete: () => {
          end = {};
          resolve(end);
          changed();
        },
      },
    );
  });
  return {
    events,
    ended,
    until(done, what, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (done(events)) finish();
          else if (end) finish(new Error(`the subscription ended (${JSON.stringify(end.error ?? "complete")}) before ${what}; events: ${JSON.stringify(events).slice(-2000)}`));
        };
        const timer = setTimeout(() => finish(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; events: ${JSON.stringify(events).slice(-2000)}`)), timeoutMs);
        const finish = (error?: Error) => {
          clearTimeout(timer);
          waiters.delete(check);
          if (error) reject(error);
          else resolve(events);
        };
        waiters.add(check);
        check();
      });
    },
  };
}

/** Polls `read` until `done` holds. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether process `pid` holds an established TCP connection to 127.0.0.1:`port` (Linux: its socket inodes in /proc). */
function connectedTo(pid: number, port: number): boolean {
  const inodes = new Set(
    fs
      .readdirSync(`/proc/${pid}/fd`)
      .map((fd) => /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`, { encoding: "utf8" }))?.[1])
      .filter((inode): inode is string => inode !== undefined),
  );
  const wanted = `:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  return ["/proc/net/tcp", "/proc/net/tcp6"].some((table) =>
    fs
      .readFileSync(table, "utf8")
      .split("\n")
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      // local_address rem_address st … inode: established (01) to the port
      .some((columns) => columns[2]?.endsWith(wanted) && columns[3] === "01" && inodes.has(columns[9])),
  );
}

/** Paragraphs of a maintenance log: `paragraphs` of them make a document of many chunk batches. */
function maintenanceLog(paragraphs: number): Buffer {
  return Buffer.from(
    Array.from({ length: paragraphs }, (_, i) => `Paragraph ${i} explains how the turbine ${i % 7} of hall ${i % 13} is serviced every ${i % 11} weeks by team ${i % 5}.`).join("\n\n"),
  );
}

async function createKnowledgeBase(name: string, parserConfig?: Record<string, unknown>, embeddingModel?: string): Promise<string> {
  return (await graphql<{ createKnowledgeBase: { id: string } }>(serverA, `mutation($input: KnowledgeBaseInput!) { createKnowledgeBase(input: $input) { id } }`, { input: { name, parserConfig, embeddingModel } })).createKnowledgeBase.id;
}

/** Uploads through `server`'s REST route (the web app's), as multipart; the files are stored in S3 before the answer. */
async function upload(server: StackServer, kbId: string, files: { name: string; data: Buffer }[]): Promise<string[]> {
  const form = new FormData();
  form.append("kb_id", kbId);
  for (const file of files) form.append("file", new Blob([new Uint8Array(file.data)]), file.name);
  const response = await fetch(`${server.url}/v1/document/upload`, { method: "POST", headers: { authorization: token }, body: form });
  const body = (await response.json()) as { code: number; data: { id: string }[] };
  if (body.code !== 0) throw new Error(`upload refused: ${JSON.stringify(body)}`);
  return body.data.map((document) => document.id);
}

const PROGRESS = `subscription($kb: ID!) { documentProgress(knowledgeBaseId: $kb) { documentId run progress chunkCount progressMsg } }`;
interface Progress {
  documentId: string;
  run: string;
  progress: number;
  chunkCount: number;
  progressMsg: string;
}
const lastOf = (events: Progress[], documentId: string) => events.filter((e) => e.documentId === documentId).at(-1);

interface StoredDocument {
  run: string;
  chunkCount: number;
  progressMsg: string;
  rows: number;
  ordinals: number;
  maxOrdinal: number;
}

async function storedDocument(documentId: string): Promise<StoredDocument> {
  const { rows } = await db.query<StoredDocument>(
    `SELECT d.run, d.chunk_count AS "chunkCount", d.progress_msg AS "progressMsg",
            (SELECT count(*)::int FROM chunk c WHERE c.document_id = d.id) AS rows,
            (SELECT count(DISTINCT ordinal)::int FROM chunk c WHERE c.document_id = d.id) AS ordinals,
            (SELECT coalesce(max(ordinal), -1)::int FROM chunk c WHERE c.document_id = d.id) AS "maxOrdinal"
     FROM document d WHERE d.id = $1`,
    [documentId],
  );
  return rows[0];
}

/** The BullMQ job (a Redis hash) that parsed the document. */
async function parseJobOf(documentId: string): Promise<Record<string, string>> {
  const [key, ...others] = (await redis.keys(`bull:cairn-jobs:parse-${documentId}-*`)).filter((k) => k.split(":").length === 3);
  expect(others).toEqual([]);
  return redis.hgetall(key);
}

/** Parsed once: done, with exactly the chunks of one complete run (one row per ordinal 0..n-1). */
function expectOneCompleteRun(document: StoredDocument): void {
  expect(document.run).toBe(RUN.done);
  expect(document.chunkCount).toBeGreaterThan(0);
  expect([document.rows, document.ordinals, document.maxOrdinal]).toEqual([document.chunkCount, document.chunkCount, document.chunkCount - 1]);
  expect(document.progressMsg.match(/Task done/g)).toHaveLength(1);
}

/** The knowledge base of the first test, parsed: the assistant of the last one reads it. */
let parsedKnowledgeBaseId: string;

test("a document uploaded through server A is parsed by a worker, and its progress reaches a subscriber on server B", async () => {
  const kbId = await createKnowledgeBase("Turbines");
  parsedKnowledgeBaseId = kbId;
  const [documentId] = await upload(serverA, kbId, [{ name: "turbines.txt", data: maintenanceLog(600) }]);
  const progress = subscribe<Progress>(serverB, "documentProgress", PROGRESS, { kb: kbId });

  await graphql(serverA, `mutation($ids: [ID!]!) { runParsing(ids: $ids) { id } }`, { ids: [documentId] });

  const events = await progress.until((e) => lastOf(e, documentId)?.run === RUN.done, "the document to be parsed", 45_000);
  const mine = events.filter((e) => e.documentId === documentId);
  // The worker's steps, not only the end: progress between nothing and done came through Redis to B.
  expect(mine.some((e) => e.run === RUN.running && e.progress > 0 && e.progress < 1)).toBe(true);
  const stored = await storedDocument(documentId);
  expectOneCompleteRun(stored);
  expect(mine.at(-1)).toMatchObject({ run: RUN.done, progress: 1, chunkCount: stored.chunkCount });
});

interface RunEvent {
  seq: number;
  type: string;
  delta: string | null;
  status: string | null;
  error: string | null;
}
const LAST_RUN_EVENTS = ["run_finished", "run_failed", "run_cancelled"];

/** A turn of the flow, started through server A (in `sessionId`, or a new session), followed on server B. */
async function startTurn(flowId: string, sessionId?: string): Promise<{ runId: string; sessionId: string; events: Subscription<RunEvent> }> {
  const { startFlowRun } = await graphql<{ startFlowRun: { run: { id: string }; session: { id: string } } }>(
    serverA,
    `mutation($flowId: ID!, $input: StartFlowRunInput!) { startFlowRun(flowId: $flowId, input: $input) { run { id } session { id } } }`,
    { flowId, input: { message: "How are the turbines serviced?", sessionId } },
  );
  const events = subscribe<RunEvent>(serverB, "flowRunEvents", `subscription($runId: ID!) { flowRunEvents(runId: $runId) { seq type delta status error } }`, { runId: startFlowRun.run.id });
  return { runId: startFlowRun.run.id, sessionId: startFlowRun.session.id, events };
}

/** A flow of Begin, then Generate with the model, whose answer streams. */
async function createFlow(title: string, modelId: string): Promise<string> {
  const dsl = {
    components: {
      begin: { obj: { component_name: "Begin", params: {} }, upstream: [], downstream: ["generate"] },
      generate: { obj: { component_name: "Generate", params: { llm_id: modelId, prompt: "Answer the question." } }, upstream: ["begin"], downstream: ["answer"] },
      answer: { obj: { component_name: "Answer", params: {} }, upstream: ["generate"], downstream: [] },
    },
  };
  return (await graphql<{ createFlow: { id: string } }>(serverA, `mutation($input: CreateFlowInput!) { createFlow(input: $input) { id } }`, { input: { title, dsl } })).createFlow.id;
}

test("a flow's run, started through server A and run by a worker, streams its events to a subscriber on server B", async () => {
  const flowId = await createFlow("Across", await addPacedModel("paced-chat", stack.model.url));
  const { events: run } = await startTurn(flowId);

  const events = await run.until((e) => e.some((event) => LAST_RUN_EVENTS.includes(event.type)), "the run to end", 45_000);
  expect(events.at(-1)).toMatchObject({ type: "run_finished", status: "finished", error: null });
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  const said = events.filter((e) => e.type === "message").map((e) => e.delta ?? "").join("");
  expect(checkPacedText(said, ANSWER_TOKENS)).toMatchObject({ ok: true });
});

let longModel: PacedServer;
let slowEmbedder: PacedServer;
afterAll(() => Promise.all([longModel?.close(), slowEmbedder?.close()]));

test("a worker killed mid-work (SIGKILL): its parse is taken over by the other worker and ends parsed, nothing lost or doubled; its flow turn ends failed, the session free", async () => {
  longModel = await startPacedOpenAiServer({ answerTokens: 4000, tokensPerSecond: 40 });
  // Small chunks, embedded by a model that takes 200 ms a batch: ~32 batches stored one after the other over ~6 s
  // however fast the machine, so that a worker can be killed halfway through them.
  slowEmbedder = await startPacedOpenAiServer({ embeddingMs: 200 });
  const kbId = await createKnowledgeBase("Halls", { chunk_token_num: 64 }, await addPacedModel("paced-embedding", slowEmbedder.url, "embedding"));
  // Two documents alike: each worker takes one (a worker runs one background job at a time), and the one that is
  // not interrupted tells how many chunks the text makes.
  const text = maintenanceLog(2000);
  const documentIds = await upload(serverA, kbId, [{ name: "hall-1.txt", data: text }, { name: "hall-2.txt", data: text }]);
  const progress = subscribe<Progress>(serverB, "documentProgress", PROGRESS, { kb: kbId });
  // A flow's turn too, on one of the workers, with a model of its own (a long answer): the worker it runs on, the
  // one connected to that model, is killed in the middle of the answer.
  const flowId = await createFlow("Interrupted", await addPacedModel("paced-long", longModel.url));
  await graphql(serverA, `mutation($ids: [ID!]!) { runParsing(ids: $ids) { id } }`, { ids: documentIds });
  const turn = await startTurn(flowId);

  // Both documents are storing chunks, so both workers hold one: the killed one dies in the middle of a document.
  await until(() => Promise.all(documentIds.map(storedDocument)), (documents) => documents.every((d) => d.run === RUN.running && d.rows > 0), "both workers to store chunks", 45_000);
  await turn.events.until((e) => e.some((event) => event.type === "message"), "the turn's answer to stream", 30_000);
  // Its answer still streaming: killed in the middle of the turn.
  expect(longModel.open()).toBe(1);
  const [victim, ...others] = stack.workers.filter((worker) => connectedTo(worker.pid, Number(new URL(longModel.url).port)));
  expect(others).toEqual([]);
  const survivor = stack.workers.find((worker) => worker !== victim)!;
  victim.child.kill("SIGKILL");
  expect(await victim.exited).toEqual({ code: null, signal: "SIGKILL" });
  const interrupted = await Promise.all(documentIds.map(storedDocument));
  expect(interrupted.some((d) => d.run === RUN.running)).toBe(true);

  // BullMQ hands the jobs on once the dead worker's locks (15 s) have expired and a stalled-job check saw them. A turn
  // is not run twice (its components may have acted on the world): it ends failed, saying why, and its session
  // takes the next message.
  const ended = await turn.events.until((e) => e.some((event) => LAST_RUN_EVENTS.includes(event.type)), "the interrupted turn to end", 60_000);
  expect(ended.at(-1)).toMatchObject({ type: "run_failed", error: "The server stopped while this run was under way. Send your message again." });
  // The session takes the next message: its turn runs (on the survivor), and is stopped there.
  const next = await startTurn(flowId, turn.sessionId);
  await next.events.until((e) => e.some((event) => event.type === "message"), "the next turn's answer to stream", 30_000);
  await graphql(serverA, `mutation($id: ID!) { cancelFlowRun(id: $id) { id } }`, { id: next.runId });
  expect((await next.events.until((e) => e.some((event) => LAST_RUN_EVENTS.includes(event.type)), "the next turn to stop", 30_000)).at(-1)).toMatchObject({ type: "run_cancelled" });
  await progress.until((e) => documentIds.every((id) => lastOf(e, id)?.run === RUN.done), "both documents to be parsed, seen on server B", 75_000);
  const finished = await Promise.all(documentIds.map(storedDocument));
  for (const document of finished) expectOneCompleteRun(document);
  expect(finished[0].chunkCount).toBe(finished[1].chunkCount);
  // Embedded by the slow model: both documents, and part of the interrupted one a second time.
  expect(slowEmbedder.embedded()).toBeGreaterThan(2 * finished[0].chunkCount);
  // One of the two jobs stalled with the dead worker and ran again on the survivor.
  const jobs = await Promise.all(documentIds.map(parseJobOf));
  expect(jobs.map((job) => Number(job.ats)).sort()).toEqual([1, 2]);
  expect(survivor.output()).not.toMatch(/failed on attempt/);
}, 120_000);

test("a server killed mid-answer: its subscriber reconnects to the other server and gets the whole answer, resumed", async () => {
  const modelId = await addPacedModel("paced-answer", stack.model.url);
  const { createAssistant } = await graphql<{ createAssistant: { id: string } }>(serverA, `mutation($input: AssistantInput!) { createAssistant(input: $input) { id } }`, {
    // The knowledge base parsed above; no empty response, so that the model answers whatever retrieval finds.
    input: { name: "Across servers", chatModel: modelId, knowledgeBaseIds: [parsedKnowledgeBaseId], emptyResponse: "" },
  });
  const { createConversation } = await graphql<{ createConversation: { id: string } }>(serverA, `mutation($id: ID!) { createConversation(assistantId: $id) { id } }`, { id: createAssistant.id });
  const { ask } = await graphql<{ ask: { answer: { id: string } } }>(serverA, `mutation($c: ID!, $q: String!) { ask(conversationId: $c, question: $q) { answer { id } } }`, {
    c: createConversation.id,
    q: "How often is turbine 3 serviced?",
  });
  interface AnswerEvent {
    seq: number;
    status: string;
    delta: string | null;
    content: string | null;
  }
  const STREAM = `subscription($id: ID!) { answerStream(messageId: $id) { seq status delta content } }`;
  /** The text the events build: the first event's snapshot, then the deltas; the final event's content when it has one. */
  const textOf = (events: AnswerEvent[]) => {
    const final = events.find((e) => e.status === "done" && e.content !== null);
    if (final) return final.content!;
    return events.reduce((text, e, i) => (i === 0 && e.content !== null ? e.content : text + (e.delta ?? "")), "");
  };

  // The answer is written by A (where it was asked) and followed on B; B dies while it streams.
  const onB = subscribe<AnswerEvent>(serverB, "answerStream", STREAM, { id: ask.answer.id });
  await onB.until((e) => checkPacedText(textOf(e), ANSWER_TOKENS).received >= 10, "ten tokens on server B", 30_000);
  serverB.process.child.kill("SIGKILL");
  expect((await onB.ended).error).toBeDefined();
  const before = textOf(onB.events);
  expect(checkPacedText(before, ANSWER_TOKENS).received).toBeLessThan(ANSWER_TOKENS);

  // Reconnected to A: first what it missed (a snapshot that goes on from what it had), then the rest live.
  const onA = subscribe<AnswerEvent>(serverA, "answerStream", STREAM, { id: ask.answer.id });
  const events = await onA.until((e) => e.some((event) => ["done", "stopped", "failed"].includes(event.status)), "the answer to end on server A", 30_000);
  expect(events[0].content?.startsWith(before.trimEnd())).toBe(true);
  expect(events.at(-1)!.status).toBe("done");
  const whole = textOf(events);
  expect(checkPacedText(whole, ANSWER_TOKENS)).toMatchObject({ ok: true, received: ANSWER_TOKENS });
  const { rows } = await db.query<{ content: string; status: string }>(`SELECT content, status FROM chat_message WHERE id = $1`, [ask.answer.id]);
  expect(rows).toEqual([{ content: whole, status: "done" }]);
  // Live after the snapshot: the rest came as deltas, not only with the final event.
  expect(events.filter((e) => e.delta).length).toBeGreaterThan(1);
});

/** A paced model server as a model of the tenant (a chat model unless `modelType` says otherwise); its key sealed by A and opened by whichever process calls it. */
async function addPacedModel(modelName: string, url: string, modelType = "chat"): Promise<string> {
  const { addModelEntry } = await graphql<{ addModelEntry: { modelId: string } }>(serverA, `mutation($input: ModelEntryInput!) { addModelEntry(input: $input) { modelId } }`, {
    input: {
      provider: "OpenAI-API-Compatible",
      modelName,
      modelType,
      credentials: [
        { name: "apiKey", value: "sk-scale-out" },
        { name: "baseUrl", value: url },
      ],
    },
  });
  return addModelEntry.modelId;
}
