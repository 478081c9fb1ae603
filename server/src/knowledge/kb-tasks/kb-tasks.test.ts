import type { SignedIn } from "../../policies/principal";
import { newId } from "../../platform/ids";
import { BuiltinProducers1764450000001 } from "../../migrations/1764450000001-builtin-producers";
import { startTestServer, type TestServer } from "../../testing/app";
import { parsedKnowledgeBase as parsedFixture } from "../../testing/knowledge-bases";
import { englishText, localizedText, type ParseLogEntry } from "../../ingestion/parse-log";
import { apiUser, type ApiUser } from "../../testing/rest-support";
import { startFakeChatServer, type FakeChatServer } from "../../chat/testing/fake-chat-server";
import { addFakeModel } from "../../chat/testing/support";
import { KbTask, KbTaskKind, KbTaskStatus } from "./kb-task.entity";
import { kbTaskTopic, type KbTaskEvent } from "./kb-task-events";

/**
 * RAPTOR and GraphRAG as knowledge-base tasks (RAGFlow v0.24): a parse does not run them; run_raptor /
 * run_graphrag do, with progress, over the real server (embedded database, in-process queue, built-in models).
 */

let server: TestServer;
let user: ApiUser;
let owner: SignedIn;
let strangerKey: string;

const TOPICS = ["lighthouse keepers", "river ferries", "mountain huts", "harbour cranes", "railway signals", "orchard harvests"];

/** Paragraphs on a few topics, so that RAPTOR has clusters to summarise. */
function paragraphs(count: number): string {
  return Array.from({ length: count }, (_, i) => {
    const topic = TOPICS[i % TOPICS.length];
    return `Note ${i} on ${topic}. The ${topic} of district ${i % 5} are inspected every ${3 + (i % 4)} weeks. Anna Berg inspects them for the Northern Works Agency in Tromso.`;
  }).join("\n\n");
}

async function principal(token: string): Promise<SignedIn> {
  const p = await server.services.principalFor(`Bearer ${token}`);
  if (p.kind === "anonymous" || p.kind === "share" || p.kind === "flowShare") throw new Error("not signed in");
  return p;
}

/** A knowledge base with the General method's defaults (use_raptor: true, the tasks' subject), small chunks, and its documents parsed. */
async function parsedKnowledgeBase(texts: string[]): Promise<{ kbId: string; documentIds: string[] }> {
  const files = texts.map((body, i) => ({ name: `notes-${i}.txt`, data: body }));
  const { knowledgeBase, documentIds } = await parsedFixture(server, owner, files, { enrichment: true, parserConfig: { chunk_token_num: 48 } });
  expect(knowledgeBase.parserConfig.raptor?.use_raptor).toBe(true);
  return { kbId: knowledgeBase.id, documentIds };
}

async function chunkKinds(kbId: string): Promise<Record<string, number>> {
  const rows: { kind: string; count: string }[] = await server.platform.db.query(`SELECT kind, count(*) AS count FROM chunk WHERE knowledge_base_id = $1 GROUP BY kind`, [kbId]);
  return Object.fromEntries(rows.map((r) => [r.kind, Number(r.count)]));
}

/** The knowledge base's and documents' counters agree with the rows. */
async function expectCountersMatchRows(kbId: string): Promise<void> {
  const [kb]: { chunk_count: number; rows: string }[] = await server.platform.db.query(
    `SELECT chunk_count, (SELECT count(*) FROM chunk WHERE knowledge_base_id = $1) AS rows FROM knowledge_base WHERE id = $1`,
    [kbId],
  );
  expect(kb.chunk_count).toBe(Number(kb.rows));
  const documents: { chunk_count: number; rows: string }[] = await server.platform.db.query(
    `SELECT chunk_count, (SELECT count(*) FROM chunk c WHERE c.document_id = d.id) AS rows FROM document d WHERE knowledge_base_id = $1`,
    [kbId],
  );
  for (const d of documents) expect(d.chunk_count).toBe(Number(d.rows));
}

const rest = (method: string, path: string, key = user.key) => server.rest(method, path, { token: key });

/** Polls trace_* as RAGFlow's suite does, until the task of that type has ended (progress 1 or -1). */
async function traceUntilEnded(kbId: string, kind: "raptor" | "graphrag", timeoutMs = 60_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await rest("GET", `/api/v1/datasets/${kbId}/trace_${kind}`);
    expect(body.code).toBe(0);
    if (body.data.task_type === kind && [1, -1].includes(body.data.progress)) return body.data;
    if (Date.now() > deadline) throw new Error(`task still running: ${JSON.stringify(body.data)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Events of a knowledge base's tasks, as the subscription delivers them, from now on. */
function recordEvents(kbId: string): { events: KbTaskEvent[]; stop: () => void } {
  const events: KbTaskEvent[] = [];
  const iterator = server.platform.pubsub.subscribe(kbTaskTopic(kbId))[Symbol.asyncIterator]();
  let stopped = false;
  void (async () => {
    while (!stopped) {
      const next = await iterator.next();
      if (next.done) return;
      events.push(next.value as KbTaskEvent);
    }
  })();
  return { events, stop: () => ((stopped = true), void iterator.return?.()) };
}

beforeAll(async () => {
  server = await startTestServer({ MODEL_CACHE_DIR: "/tmp/cairn-model-cache" });
  user = await apiUser(server);
  owner = await principal(user.token);
  strangerKey = (await apiUser(server)).key;
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe("RAPTOR as a knowledge-base task", () => {
  let kbId: string;

  beforeAll(async () => {
    ({ kbId } = await parsedKnowledgeBase([paragraphs(12), paragraphs(2)]));
  }, 60_000);

  test("a parse with the General method's defaults (use_raptor: true) makes no RAPTOR chunks", async () => {
    const kinds = await chunkKinds(kbId);
    expect(kinds.text).toBeGreaterThanOrEqual(6);
    expect(kinds.raptor).toBeUndefined();
    const log: { progress_msg: string }[] = await server.platform.db.query(`SELECT progress_msg FROM document WHERE knowledge_base_id = $1`, [kbId]);
    for (const { progress_msg } of log) expect(progress_msg).not.toMatch(/RAPTOR/);
    expect((await rest("GET", `/api/v1/datasets/${kbId}/trace_raptor`)).body).toEqual({ code: 0, data: {} });
  });

  test("run_raptor queues a task that adds summary chunks, with progress published as it runs; trace_raptor reports it", async () => {
    const recorder = recordEvents(kbId);
    const started = await rest("POST", `/api/v1/datasets/${kbId}/run_raptor`);
    expect(started.body).toEqual({ code: 0, data: { raptor_task_id: expect.stringMatching(/^[0-9a-f]{32}$/) } });
    const trace = await traceUntilEnded(kbId, "raptor");
    recorder.stop();

    expect(trace).toMatchObject({ id: started.body.data.raptor_task_id, task_type: "raptor", progress: 1, from_page: 100000000, to_page: 100000000, retry_count: 0 });
    expect(Object.keys(trace).sort()).toEqual(
      ["id", "doc_id", "from_page", "to_page", "task_type", "priority", "begin_at", "process_duration", "progress", "progress_msg", "retry_count", "digest", "chunk_ids", "create_time", "create_date", "update_time", "update_date"].sort(),
    );
    expect(trace.progress_msg).toMatch(/RAPTOR made \d+ summary chunk/);
    expect(trace.progress_msg).toContain("Task done");
    expect(trace.process_duration).toBeGreaterThan(0);
    // The small document has too few chunks to cluster; the large one is summarised.
    expect(trace.progress_msg).toMatch(/notes-1\.txt: \d chunk\(s\) are too few to cluster/);
    // RAGFlow's clients read English, whatever the language of the one who started the task.
    expect(trace.progress_msg).toMatch(/^\d\d:\d\d:\d\d Task has been queued\.\n/);
    expect(trace.progress_msg).not.toMatch(/[\u3400-\u9fff]/);

    const kinds = await chunkKinds(kbId);
    expect(kinds.raptor).toBeGreaterThan(0);
    const [task] = await server.services.kbTasks.latest(owner, kbId);
    expect(task).toMatchObject({ kind: KbTaskKind.RAPTOR, status: KbTaskStatus.DONE, chunkCount: kinds.raptor });
    await expectCountersMatchRows(kbId);

    const running = recorder.events.filter((e) => e.status === KbTaskStatus.RUNNING);
    expect(running.length).toBeGreaterThan(1);
    expect(running.some((e) => e.progress > 0 && e.progress < 1)).toBe(true);
    expect(recorder.events.at(-1)).toMatchObject({ status: KbTaskStatus.DONE, progress: 1 });
  });

  test("the task log is kept as message keys: a Chinese reader reads it in Chinese, line for line with the English text", async () => {
    const query = `query ($id: ID!) { knowledgeBaseTasks(knowledgeBaseId: $id) { kind progressMsg progressLog { at messageKey params } } }`;
    const answer = await server.graphql<{ knowledgeBaseTasks: { kind: string; progressMsg: string; progressLog: ParseLogEntry[] }[] }>(query, { id: kbId }, user.token);
    expect(answer.errors).toBeUndefined();
    const [task] = answer.data!.knowledgeBaseTasks;
    expect(task.kind).toBe("RAPTOR");
    expect(task.progressLog.map((line) => line.messageKey)).toEqual(
      expect.arrayContaining(["kbTaskLog.queued", "parseLog.received", "kbTaskLog.raptorStarted", "kbTaskLog.tooFewChunks", "kbTaskLog.summaryChunks", "kbTaskLog.raptorMadeBy", "parseLog.done"]),
    );
    expect(task.progressLog.at(-2)).toMatchObject({ messageKey: "kbTaskLog.raptorMadeBy", params: { by: "cairn-extractive@Builtin" } });
    // The English text is the same log, line for line.
    expect(task.progressMsg.split("\n")).toEqual(task.progressLog.map((line) => `${line.at} ${englishText(line)}`));
    const chinese = task.progressLog.map((line) => localizedText("zh", line));
    for (const [i, text] of chinese.entries()) {
      expect(text).toMatch(/[\u3400-\u9fff]/);
      expect(text).not.toBe(englishText(task.progressLog[i]));
    }
    const tooFew = task.progressLog.find((line) => line.messageKey === "kbTaskLog.tooFewChunks")!;
    expect(localizedText("zh", tooFew)).toBe(`notes-1.txt：${tooFew.params.count} 个分块太少，无法聚类。`);
  });

  test("the dataset listing names the latest RAPTOR run and when one last succeeded, and no GraphRAG run", async () => {
    const [task] = await server.services.kbTasks.latest(owner, kbId);
    const listed = (await rest("GET", `/api/v1/datasets?page_size=100`)).body.data.find((d: { id: string }) => d.id === kbId);
    expect(listed).toMatchObject({
      raptor_task_id: task.id,
      raptor_task_finish_at: task.finishedAt!.toUTCString(),
      graphrag_task_id: null,
      graphrag_task_finish_at: null,
    });
    const byId = (await rest("GET", `/api/v1/datasets?id=${kbId}`)).body.data[0];
    expect(byId).toMatchObject({ raptor_task_id: task.id, raptor_task_finish_at: task.finishedAt!.toUTCString() });
  });

  test("a second run replaces the first run's summaries instead of adding to them", async () => {
    const before = await server.platform.db.query(`SELECT id FROM chunk WHERE knowledge_base_id = $1 AND kind = 'raptor'`, [kbId]);
    await rest("POST", `/api/v1/datasets/${kbId}/run_raptor`);
    const trace = await traceUntilEnded(kbId, "raptor");
    expect(trace.progress).toBe(1);
    const after = await server.platform.db.query(`SELECT id FROM chunk WHERE knowledge_base_id = $1 AND kind = 'raptor'`, [kbId]);
    expect(after.length).toBe(before.length);
    const [task] = await server.services.kbTasks.latest(owner, kbId);
    expect(task.chunkCount).toBe(after.length);
    await expectCountersMatchRows(kbId);
  });

  test("the chunk list can leave RAPTOR summaries out, or show only them", async () => {
    const [{ id: documentId }]: { id: string }[] = await server.platform.db.query(`SELECT document_id AS id FROM chunk WHERE knowledge_base_id = $1 AND kind = 'raptor' LIMIT 1`, [kbId]);
    const all = await server.services.chunks.list(owner, documentId, { pageSize: 0 });
    const original = await server.services.chunks.list(owner, documentId, { origin: "original", pageSize: 0 });
    const raptor = await server.services.chunks.list(owner, documentId, { origin: "raptor", pageSize: 0 });
    expect(raptor.total).toBeGreaterThan(0);
    expect(original.total + raptor.total).toBe(all.total);
    expect(original.items.every((c) => c.kind !== "raptor")).toBe(true);
    expect(raptor.items.every((c) => c.kind === "raptor")).toBe(true);
    // Summaries come after the chunks they summarise.
    expect(all.items.slice(-raptor.total).every((c) => c.kind === "raptor")).toBe(true);
  });

  test("summary chunks name the model only; older ones that also described the built-in method in English are brought in line", async () => {
    const [{ id, produced_by }]: { id: string; produced_by: Record<string, string> }[] = await server.platform.db.query(
      `SELECT id, produced_by FROM chunk WHERE knowledge_base_id = $1 AND kind = 'raptor' LIMIT 1`,
      [kbId],
    );
    expect(produced_by).toEqual({ summary: "cairn-extractive@Builtin" });
    const older = { summary: "cairn-extractive@Builtin (extractive summaries: the most central sentences of each cluster)", questions: "gpt-4o@OpenAI" };
    await server.platform.db.query(`UPDATE chunk SET produced_by = $2 WHERE id = $1`, [id, JSON.stringify(older)]);
    const runner = server.platform.db.createQueryRunner();
    await new BuiltinProducers1764450000001().up(runner).finally(() => runner.release());
    const [after]: { produced_by: Record<string, string> }[] = await server.platform.db.query(`SELECT produced_by FROM chunk WHERE id = $1`, [id]);
    expect(after.produced_by).toEqual({ summary: "cairn-extractive@Builtin", questions: "gpt-4o@OpenAI" });
  });

  test("a cancelled run stops, keeps the previous run's summaries, and a new run may start", async () => {
    // Its summaries come from a model on a local server, whose pace the test sets: the run to cancel cannot end first.
    // A new knowledge base takes the tenant's default chat model: this one, for this test only.
    const model = await startFakeChatServer({ paceMs: 1, reply: () => "The notes tell who inspects what, and how often." });
    const { chat: usual } = await server.services.models.defaults(owner.tenantId);
    try {
      await server.services.models.setDefaults(owner, { chat: await addFakeModel(server, user, model) });
      await cancelledWhileSummarising(model, (await parsedKnowledgeBase([paragraphs(100)])).kbId);
    } finally {
      await server.services.models.setDefaults(owner, { chat: usual });
      await model.close();
    }
  }, 180_000);

  async function cancelledWhileSummarising(model: FakeChatServer, bigKb: string): Promise<void> {
    await rest("POST", `/api/v1/datasets/${bigKb}/run_raptor`);
    const first = await traceUntilEnded(bigKb, "raptor", 120_000);
    expect(first.progress).toBe(1);
    const kept = await chunkKinds(bigKb);

    model.paceMs = 20_000;
    model.requests.length = 0;
    const task = await server.services.kbTasks.start(owner, bigKb, KbTaskKind.RAPTOR);
    // Cancelled once it is under way (its model asked for a summary, and answering word by word), not while still queued.
    const deadline = Date.now() + 60_000;
    while (!model.requests.some((r) => r.path.endsWith("/chat/completions"))) {
      if (Date.now() > deadline) throw new Error("the task never asked its model");
      await new Promise((r) => setTimeout(r, 10));
    }
    // A page opened now, or a client polling trace_raptor, reads the run as it is, though its next step is far off.
    for (;;) {
      const stored = await server.platform.db.getRepository(KbTask).findOneByOrFail({ id: task.id });
      if (stored.progress > 0) {
        expect(stored.progressLog.map((line) => line.messageKey)).toContain("kbTaskLog.raptorStarted");
        break;
      }
      if (Date.now() > deadline) throw new Error("the task's progress was never written");
      await new Promise((r) => setTimeout(r, 10));
    }
    const cancelled = await server.services.kbTasks.cancel(owner, task.id);
    expect(cancelled).toMatchObject({ status: KbTaskStatus.CANCELLED, progress: -1 });
    expect(cancelled.progressMsg).toMatch(/Cancelled by the user\.$/);
    expect(cancelled.progressLog.at(-1)).toMatchObject({ messageKey: "parseLog.cancelled" });
    const trace = await traceUntilEnded(bigKb, "raptor");
    expect(trace).toMatchObject({ id: task.id, progress: -1 });
    expect(await chunkKinds(bigKb)).toEqual(kept);

    // Another run may start at once, and the cancelled one never becomes done (its output would only be stored with that).
    model.paceMs = 1;
    const again = await server.services.kbTasks.start(owner, bigKb, KbTaskKind.RAPTOR);
    expect((await traceUntilEnded(bigKb, "raptor", 120_000)).id).toBe(again.id);
    expect(await server.platform.db.getRepository(KbTask).findOneByOrFail({ id: task.id })).toMatchObject({ status: KbTaskStatus.CANCELLED, progress: -1 });
    expect(await chunkKinds(bigKb)).toEqual(kept);
    await expectCountersMatchRows(bigKb);
  }
});

describe("GraphRAG as a knowledge-base task", () => {
  test("run_graphrag builds the knowledge graph; GET knowledge_graph shows it as RAGFlow does; DELETE removes it", async () => {
    const { kbId } = await parsedKnowledgeBase([paragraphs(6)]);
    expect((await rest("GET", `/api/v1/datasets/${kbId}/knowledge_graph`)).body).toEqual({ code: 0, data: { graph: {}, mind_map: {} } });
    expect((await rest("GET", `/api/v1/datasets/${kbId}/trace_graphrag`)).body).toEqual({ code: 0, data: {} });

    const started = await rest("POST", `/api/v1/datasets/${kbId}/run_graphrag`);
    expect(started.body).toEqual({ code: 0, data: { graphrag_task_id: expect.stringMatching(/^[0-9a-f]{32}$/) } });
    const trace = await traceUntilEnded(kbId, "graphrag");
    expect(trace).toMatchObject({ task_type: "graphrag", progress: 1 });
    expect(trace.progress_msg).toMatch(/Knowledge graph: [1-9]\d* entities and \d+ relations\./);
    expect(trace.progress_msg).toContain("built by Cairn's built-in extractor");
    const [task] = await server.services.kbTasks.latest(owner, kbId);
    expect(task.progressLog.map((line) => line.messageKey)).toEqual(expect.arrayContaining(["kbTaskLog.graphStarted", "parseLog.graphBuiltin", "kbTaskLog.documentGraph", "kbTaskLog.graphMade"]));
    expect(localizedText("zh", task.progressLog.find((line) => line.messageKey === "kbTaskLog.graphMade")!)).toBe(`知识图谱：${task.entityCount} 个实体，${task.relationCount} 个关系。`);
    const listed = (await rest("GET", `/api/v1/datasets?id=${kbId}`)).body.data[0];
    expect(listed).toMatchObject({ graphrag_task_id: task.id, graphrag_task_finish_at: task.finishedAt!.toUTCString(), raptor_task_id: null });

    const { body } = await rest("GET", `/api/v1/datasets/${kbId}/knowledge_graph`);
    expect(body.code).toBe(0);
    const names = body.data.graph.nodes.map((n: { entity_name: string }) => n.entity_name);
    expect(names).toEqual(expect.arrayContaining(["Anna Berg", "Northern Works Agency"]));
    expect(Object.keys(body.data.graph.nodes[0]).sort()).toEqual(["description", "entity_name", "entity_type", "id", "pagerank", "rank", "source_id"]);
    expect(body.data.graph.edges.length).toBeGreaterThan(0);
    expect(Object.keys(body.data.graph.edges[0]).sort()).toEqual(["description", "keywords", "source", "source_id", "src_id", "target", "tgt_id", "weight"]);
    expect(body.data.mind_map).toMatchObject({ children: expect.any(Array) });

    expect((await rest("DELETE", `/api/v1/datasets/${kbId}/knowledge_graph`)).body).toEqual({ code: 0, data: true });
    expect((await rest("GET", `/api/v1/datasets/${kbId}/knowledge_graph`)).body).toEqual({ code: 0, data: { graph: {}, mind_map: {} } });
  });
});

describe("the REST contract's refusals (§2.7)", () => {
  test("a dataset the caller may not use: code 109 'No authorization.' with data false, on every endpoint", async () => {
    const kb = await server.services.knowledgeBases.create(owner, { name: `private-${newId()}` });
    for (const [method, path] of [
      ["POST", "run_raptor"],
      ["GET", "trace_raptor"],
      ["POST", "run_graphrag"],
      ["GET", "trace_graphrag"],
      ["GET", "knowledge_graph"],
      ["DELETE", "knowledge_graph"],
    ]) {
      expect((await rest(method, `/api/v1/datasets/${kb.id}/${path}`, strangerKey)).body).toEqual({ code: 109, message: "No authorization.", data: false });
    }
  });

  test("no documents: code 102 'No documents in Dataset {id}'", async () => {
    const kb = await server.services.knowledgeBases.create(owner, { name: `empty-${newId()}` });
    expect((await rest("POST", `/api/v1/datasets/${kb.id}/run_raptor`)).body).toEqual({ code: 102, message: `No documents in Dataset ${kb.id}` });
    expect((await rest("POST", `/api/v1/datasets/${kb.id}/run_graphrag`)).body).toEqual({ code: 102, message: `No documents in Dataset ${kb.id}` });
  });

  test("a task of the same kind that has not ended: code 102 with RAGFlow's message, and the other kind may still start", async () => {
    const kb = await server.services.knowledgeBases.create(owner, { name: `busy-${newId()}` });
    await server.services.documents.upload(owner, kb.id, [{ name: "a.txt", data: Buffer.from("Anna Berg works in Tromso.") }]);
    // Tasks still waiting for a worker, as after a restart before their jobs ran.
    const waiting = (kind: KbTaskKind, progress: number) =>
      server.platform.db.getRepository(KbTask).save({
        id: newId(), knowledgeBaseId: kb.id, tenantId: kb.tenantId, createdBy: owner.user.id, kind, status: KbTaskStatus.QUEUED,
        progress, progressMsg: "", documentIds: [], chunkCount: null, entityCount: null, relationCount: null, beginAt: null, finishedAt: null, processDuration: 0,
      });
    const raptor = await waiting(KbTaskKind.RAPTOR, 0);
    expect((await rest("POST", `/api/v1/datasets/${kb.id}/run_raptor`)).body).toEqual({
      code: 102,
      message: `Task ${raptor.id} in progress with status 0.0. A RAPTOR Task is already running.`,
    });
    const graph = await waiting(KbTaskKind.GRAPHRAG, 0.25);
    expect((await rest("POST", `/api/v1/datasets/${kb.id}/run_graphrag`)).body).toEqual({
      code: 102,
      message: `Task ${graph.id} in progress with status 0.25. A Graph Task is already running.`,
    });
    await server.services.kbTasks.cancel(owner, raptor.id);
    expect((await rest("POST", `/api/v1/datasets/${kb.id}/run_raptor`)).body.code).toBe(0);
    await traceUntilEnded(kb.id, "raptor");
    await server.services.kbTasks.cancel(owner, graph.id);
  });
});
