import { createClient } from "graphql-ws";
import WebSocket from "ws";
import type { SignedIn } from "../policies/principal";
import { closeTesseract } from "../models/builtin/tesseract-ocr";
import { startTestServer, type TestServer } from "../testing/app";
import { RUN, type Document } from "./document.entity";
import { QUEUE_MOVED_TOPIC } from "./parse-queue";
import { apiUser, type ApiUser } from "../testing/rest-support";

/**
 * What the lists and pages count is what the rows hold, whatever changed them; and a document that waits for a
 * worker says where it stands in line, in GraphQL and its subscription, while the REST facade keeps RAGFlow's
 * RUNNING with progress 0.
 */

const text = (name: string, body: string) => ({ name, data: Buffer.from(body) });
const paragraphs = (topic: string, count: number) =>
  Array.from({ length: count }, (_, i) => `Paragraph ${i} about ${topic}: the ${topic} manual explains step ${i} with enough words to fill a chunk of its own over many lines.`).join("\n\n");

async function signedInUser(server: TestServer): Promise<{ api: ApiUser; principal: SignedIn }> {
  const api = await apiUser(server);
  const principal = await server.services.principalFor(`Bearer ${api.token}`);
  if (principal.kind === "anonymous" || principal.kind === "share" || principal.kind === "flowShare") throw new Error("not signed in");
  return { api, principal };
}

async function waitForRuns(server: TestServer, owner: SignedIn, ids: string[], runs: string[]): Promise<Document[]> {
  for (;;) {
    const documents = await Promise.all(ids.map((id) => server.services.documents.accessible(owner, id)));
    if (documents.every((d) => runs.includes(d.run))) return documents;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let server: TestServer;
let owner: SignedIn;
let api: ApiUser;

beforeAll(async () => {
  // No job runs until a test starts the queue: the first test's documents wait in line.
  server = await startTestServer({ MODEL_CACHE_DIR: "/tmp/cairn-model-cache", JOB_CONCURRENCY: "0" });
  ({ api, principal: owner } = await signedInUser(server));
}, 60_000);
afterAll(async () => {
  await server?.close();
  await closeTesseract();
});

describe("a document waiting for a worker", () => {
  const POSITIONS = `query($id: ID!) { documents(knowledgeBaseId: $id) { items { name run progress queuePosition } } }`;
  const PROGRESS = `subscription($id: ID!) { documentProgress(knowledgeBaseId: $id) { documentId run queuePosition } }`;

  test("says its place in line in GraphQL and its subscription, and RUNNING with progress 0 over REST", async () => {
    const kb = await server.services.knowledgeBases.create(owner, { name: "Queued" });
    const { documents } = await server.services.documents.upload(owner, kb.id, ["a.txt", "b.txt", "c.txt"].map((name) => text(name, `The ${name} file.`)));
    const [a, b, c] = documents.map((d) => d.id);
    await server.services.documents.runParsing(owner, [a, b, c]);

    const listed = await server.graphql<{ documents: { items: { name: string; run: string; progress: number; queuePosition: number | null }[] } }>(POSITIONS, { id: kb.id }, api.token);
    const places = Object.fromEntries(listed.data!.documents.items.map((d) => [d.name, [d.run, d.progress, d.queuePosition]]));
    expect(places).toEqual({ "a.txt": [RUN.running, 0, 1], "b.txt": [RUN.running, 0, 2], "c.txt": [RUN.running, 0, 3] });

    const rest = await server.rest("GET", `/api/v1/datasets/${kb.id}/documents`, { token: api.key });
    expect(rest.body.data.docs.map((d: { run: string; progress: number }) => [d.run, d.progress])).toEqual([["RUNNING", 0], ["RUNNING", 0], ["RUNNING", 0]]);

    const client = createClient({ url: `${server.url.replace("http", "ws")}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${api.token}` }, retryAttempts: 0 });
    const events: { documentId: string; run: string; queuePosition: number | null }[] = [];
    const changed = new Set<() => void>();
    const until = (condition: () => boolean) => new Promise<void>((resolve) => {
      const check = () => condition() && (changed.delete(check), resolve());
      changed.add(check);
      check();
    });
    const stop = client.subscribe({ query: PROGRESS, variables: { id: kb.id } }, {
      next: ({ data }) => {
        events.push((data as { documentProgress: (typeof events)[number] }).documentProgress);
        for (const check of [...changed]) check();
      },
      error: () => undefined,
      complete: () => undefined,
    });
    try {
      // First the documents as they are, with their places.
      await until(() => events.length >= 3);
      expect(events.map((e) => [e.documentId, e.queuePosition])).toEqual(expect.arrayContaining([[a, 1], [b, 2], [c, 3]]));

      // Parsed again, a goes to the back of the line (its earlier job still holds the front); when the line moves,
      // only the places that changed are said.
      await server.services.documents.runParsing(owner, [a]);
      await until(() => events.some((e) => e.documentId === a && e.queuePosition === 4));
      const before = events.length;
      server.platform.pubsub.publish(QUEUE_MOVED_TOPIC, {});
      await server.services.documents.runParsing(owner, [b]);
      await until(() => events.some((e) => e.documentId === b && e.queuePosition === 5));
      expect(events.slice(before).map((e) => [e.documentId, e.queuePosition])).toEqual([[b, 5]]);

      server.platform.queue.start(server.services, { background: 1, interactive: 1 });
      await until(() => [a, b, c].every((id) => events.some((e) => e.documentId === id && e.run === RUN.done)));
      const done = await server.graphql<{ documents: { items: { run: string; queuePosition: number | null }[] } }>(POSITIONS, { id: kb.id }, api.token);
      expect(done.data!.documents.items.map((d) => [d.run, d.queuePosition])).toEqual([[RUN.done, null], [RUN.done, null], [RUN.done, null]]);
    } finally {
      stop();
      await client.dispose();
    }
  }, 60_000);
});

describe("counters", () => {
  beforeAll(() => server.platform.queue.start(server.services, { background: 2, interactive: 2 }));

  /** The counters of the knowledge base and each of its documents, next to what the rows say. */
  async function countersAndRows(knowledgeBaseId: string) {
    const db = server.platform.db;
    const [kb] = await db.query(`SELECT document_count, chunk_count, token_count::int AS token_count FROM knowledge_base WHERE id = $1`, [knowledgeBaseId]);
    const [rows] = await db.query(
      // A knowledge base counts its live documents: one in the recycle bin takes its chunks out of the counts.
      `SELECT (SELECT count(*)::int FROM document WHERE knowledge_base_id = $1 AND binned_in IS NULL) AS document_count,
              (SELECT count(*)::int FROM chunk c JOIN document d ON d.id = c.document_id WHERE c.knowledge_base_id = $1 AND d.binned_in IS NULL) AS chunk_count,
              (SELECT coalesce(sum(c.token_count), 0)::int FROM chunk c JOIN document d ON d.id = c.document_id WHERE c.knowledge_base_id = $1 AND d.binned_in IS NULL) AS token_count`,
      [knowledgeBaseId],
    );
    const documents = await db.query(
      `SELECT d.id, d.chunk_count AS counted, d.token_count::int AS counted_tokens, count(c.id)::int AS rows, coalesce(sum(c.token_count), 0)::int AS row_tokens
       FROM document d LEFT JOIN chunk c ON c.document_id = d.id WHERE d.knowledge_base_id = $1 GROUP BY d.id`,
      [knowledgeBaseId],
    );
    return { kb, rows, documents };
  }

  async function expectCountersMatchRows(knowledgeBaseId: string) {
    const { kb, rows, documents } = await countersAndRows(knowledgeBaseId);
    expect(kb).toEqual(rows);
    for (const d of documents) expect({ id: d.id, chunks: d.counted, tokens: d.counted_tokens }).toEqual({ id: d.id, chunks: d.rows, tokens: d.row_tokens });
    return rows as { document_count: number; chunk_count: number; token_count: number };
  }

  test("chunk and document counts equal the rows through parsing, chunk edits, deletions and parsing again", async () => {
    const kb = await server.services.knowledgeBases.create(owner, { name: "Counted" });
    const { documents } = await server.services.documents.upload(owner, kb.id, [
      text("tents.txt", paragraphs("tent", 40)),
      text("stoves.txt", paragraphs("stove", 3)),
      text("boots.txt", "Boots keep feet dry."),
    ]);
    const ids = documents.map((d) => d.id);
    expect(await expectCountersMatchRows(kb.id)).toMatchObject({ document_count: 3, chunk_count: 0 });

    await server.services.documents.runParsing(owner, ids);
    await waitForRuns(server, owner, ids, [RUN.done]);
    const parsed = await expectCountersMatchRows(kb.id);
    expect(parsed.chunk_count).toBeGreaterThan(3);

    // The same text added twice is two chunks, counted twice (RAGFlow's suite checks the +2).
    const [boots] = ids.slice(2);
    const first = await server.services.chunks.add(owner, boots, { content: "Resole boots every two years." });
    const second = await server.services.chunks.add(owner, boots, { content: "Resole boots every two years." });
    expect(second.id).not.toBe(first.id);
    expect((await expectCountersMatchRows(kb.id)).chunk_count).toBe(parsed.chunk_count + 2);

    await server.services.chunks.update(owner, first.id, { content: "Resole boots every two years, or sooner on rock and scree." });
    await server.services.chunks.setAvailable(owner, [second.id], false);
    const { items } = await server.services.chunks.list(owner, ids[0]);
    await server.services.chunks.delete(owner, [items[0].id, items[1].id]);
    expect((await expectCountersMatchRows(kb.id)).chunk_count).toBe(parsed.chunk_count);

    await server.services.documents.delete(owner, [ids[1]]);
    expect(await expectCountersMatchRows(kb.id)).toMatchObject({ document_count: 2 });

    await server.services.documents.runParsing(owner, [ids[0], ids[2]]);
    await waitForRuns(server, owner, [ids[0], ids[2]], [RUN.done]);
    await expectCountersMatchRows(kb.id);
    await server.services.documents.changeParser(owner, ids[0], "one");
    expect(await expectCountersMatchRows(kb.id)).toMatchObject({ document_count: 2 });

    const listed = (await server.services.knowledgeBases.list(owner, {})).items.find((k) => k.id === kb.id)!;
    const rows = await expectCountersMatchRows(kb.id);
    expect({ documents: listed.documentCount, chunks: listed.chunkCount, tokens: listed.tokenCount }).toEqual({
      documents: rows.document_count,
      chunks: rows.chunk_count,
      tokens: rows.token_count,
    });
  });
});
