import type { SignedIn } from "../policies/principal";
import { closeTesseract } from "../models/builtin/tesseract-ocr";
import { corruptPdf, sampleDocx } from "../ingestion/testing/sample-files";
import { signUpAndIn, startTestServer, type TestServer } from "../testing/app";
import { chunkId } from "../ingestion/pipeline";
import type { DocumentCompletion } from "./chunk-store";
import { completeDocument } from "./completion-writer";
import { RUN, type Document } from "./document.entity";

/**
 * Ingestion through the real server: the embedded database, the in-process queue, the built-in models.
 * What a user sees in the dataset page: statuses, progress, chunks, reasons for failures.
 */

let server: TestServer;
let owner: SignedIn;
let ownerToken: string;
let stranger: SignedIn;
let strangerToken: string;

async function principal(token: string): Promise<SignedIn> {
  const p = await server.services.principalFor(`Bearer ${token}`);
  if (p.kind === "anonymous" || p.kind === "share" || p.kind === "flowShare") throw new Error("not signed in");
  return p;
}

async function waitForRun(id: string, runs: string[], timeoutMs = 30_000): Promise<Document> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const document = await server.services.documents.accessible(owner, id);
    if (runs.includes(document.run)) return document;
    if (Date.now() > deadline) throw new Error(`document ${id} still ${document.run}: ${document.progressMsg}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const text = (name: string, body: string) => ({ name, data: Buffer.from(body) });

beforeAll(async () => {
  server = await startTestServer({ MODEL_CACHE_DIR: "/tmp/cairn-model-cache" });
  ({ token: ownerToken } = await signUpAndIn(server));
  ({ token: strangerToken } = await signUpAndIn(server));
  owner = await principal(ownerToken);
  stranger = await principal(strangerToken);
}, 60_000);

afterAll(async () => {
  await server?.close();
  await closeTesseract();
});

describe("parsing a document", () => {
  test("a text file goes unstarted → parsing → success, with chunks, counters and a log ending in Task done", async () => {
    const kb = await server.services.knowledgeBases.create(owner, { name: "Manuals" });
    const { documents } = await server.services.documents.upload(owner, kb.id, [text("test.txt", "This is the content of a test TXT file.")]);
    expect(documents[0].run).toBe(RUN.unstarted);
    const [queued] = await server.services.documents.runParsing(owner, [documents[0].id]);
    expect(queued.run).toBe(RUN.running);
    const done = await waitForRun(documents[0].id, [RUN.done, RUN.failed]);
    expect(done.run).toBe(RUN.done);
    expect(done.progress).toBe(1);
    expect(done.progressMsg).toContain("Task done");
    // the same log as message keys, which the client says in the reader's language
    expect(done.progressLog[0]).toMatchObject({ messageKey: "parseLog.received", params: {} });
    expect(done.progressLog).toContainEqual(expect.objectContaining({ messageKey: "parseLog.chunked", params: { count: 1, method: { messageKey: "chunkMethods.naive.label", params: {} } } }));
    expect(done.progressLog.at(-1)).toMatchObject({ messageKey: "parseLog.done", params: { seconds: expect.stringMatching(/^\d+\.\d\d$/) } });
    expect(done.processDuration).toBeGreaterThan(0);
    expect(done.chunkCount).toBe(1);
    const page = await server.services.chunks.list(owner, done.id);
    expect(page.items.map((c) => c.content)).toEqual(["This is the content of a test TXT file."]);
    const after = await server.services.knowledgeBases.accessible(owner, kb.id);
    expect(after.chunkCount).toBe(1);
    expect(after.documentCount).toBe(1);
  });

  test("progress reaches a GraphQL subscriber while the document parses", async () => {
    const kb = await server.services.knowledgeBases.create(owner, { name: "Watched" });
    const events: { run: string; progress: number }[] = [];
    const iterator = server.platform.pubsub.subscribe(`knowledge.progress.${kb.id}`)[Symbol.asyncIterator]();
    const collecting = (async () => {
      for (;;) {
        const { value, done } = await iterator.next();
        if (done) return;
        events.push(value as { run: string; progress: number });
        if ((value as { run: string }).run === RUN.done) return;
      }
    })();
    const docx = await sampleDocx();
    const { documents } = await server.services.documents.upload(owner, kb.id, [{ name: "report.docx", data: docx }]);
    await server.services.documents.runParsing(owner, [documents[0].id]);
    await collecting;
    await iterator.return?.();
    expect(events[0].run).toBe(RUN.running);
    expect(events.at(-1)!.run).toBe(RUN.done);
    expect(events.length).toBeGreaterThan(3);
    const progress = events.map((e) => e.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  test("a corrupt file ends as failed, with the reason in its log", async () => {
    const kb = await server.services.knowledgeBases.create(owner, { name: "Broken" });
    const { documents } = await server.services.documents.upload(owner, kb.id, [{ name: "broken.pdf", data: await corruptPdf() }]);
    await server.services.documents.runParsing(owner, [documents[0].id]);
    const failed = await waitForRun(documents[0].id, [RUN.failed, RUN.done]);
    expect(failed.run).toBe(RUN.failed);
    expect(failed.progress).toBe(-1);
    expect(failed.progressMsg).toMatch(/\[ERROR\] .+/);
    expect(failed.progressLog.at(-1)).toMatchObject({ messageKey: "parseLog.failed", params: { reason: { messageKey: expect.stringMatching(/^errors\.parsing\./) } } });
    expect(failed.chunkCount).toBe(0);
  });

  test("cancelling mid-parse leaves the document cancelled and without chunks", async () => {
    const kb = await server.services.knowledgeBases.create(owner, { name: "Long" });
    const paragraphs = Array.from({ length: 3000 }, (_, i) => `Paragraph ${i} explains how the turbine ${i % 7} is serviced every ${i % 11} weeks.`).join("\n\n");
    const { documents } = await server.services.documents.upload(owner, kb.id, [text("long.txt", paragraphs)]);
    const events = server.platform.pubsub.subscribe(`knowledge.progress.${kb.id}`)[Symbol.asyncIterator]();
    await server.services.documents.runParsing(owner, [documents[0].id]);
    // Cancel once it has been parsed and chunked, while it is being embedded and stored.
    for (;;) {
      const { value } = await events.next();
      if ((value as { progress: number }).progress > 0.5) break;
    }
    await events.return?.();
    const [cancelled] = await server.services.documents.cancelParsing(owner, [documents[0].id]);
    expect(cancelled.run).toBe(RUN.cancelled);
    await new Promise((r) => setTimeout(r, 1500));
    const after = await server.services.documents.accessible(owner, documents[0].id);
    expect(after.run).toBe(RUN.cancelled);
    expect(after.chunkCount).toBe(0);
    expect((await server.services.chunks.list(owner, after.id)).total).toBe(0);
  });
});

describe("completing parses together", () => {
  test("completions that meet are written in one statement; a document whose run changed meanwhile stores nothing", async () => {
    const kb = await server.services.knowledgeBases.create(owner, { name: "Together" });
    const { documents } = await server.services.documents.upload(owner, kb.id, [text("a.txt", "alpha"), text("b.txt", "beta"), text("c.txt", "gamma")]);
    const db = server.services.platform.db;
    await db.query(`UPDATE document SET run = '1', run_id = 'r' || right(id, 20) WHERE id = ANY($1)`, [documents.map((d) => d.id)]);
    const completion = (document: Document, runId: string, content: string): DocumentCompletion => ({
      documentId: document.id,
      knowledgeBaseId: kb.id,
      runId,
      chunks: [
        { id: chunkId(document.id, 0, content), knowledgeBaseId: kb.id, documentId: document.id, tenantId: document.tenantId, ordinal: 0, kind: "text", content, title: "", keywords: [], questions: [], fields: null, positions: [], imageKey: null, available: true, tokenCount: 1, producedBy: {}, vector: [1, 0, 0] },
      ],
      log: { progressMsg: "done", progressLog: [] },
      processDuration: 0.5,
      pageCount: null,
    });
    const runOf = (document: Document) => `r${document.id.slice(-20)}`;
    const [a, b, c] = documents;
    // three at once: the first finds the writer idle, the other two meet in the next statement
    const finished = await Promise.all([
      completeDocument(db, completion(a, runOf(a), "alpha")),
      completeDocument(db, completion(b, "a run that was cancelled", "beta")),
      completeDocument(db, completion(c, runOf(c), "gamma")),
    ]);
    expect(finished).toEqual([{ chunkCount: 1, tokenCount: 1 }, null, { chunkCount: 1, tokenCount: 1 }]);
    const runs = await Promise.all(documents.map((d) => server.services.documents.accessible(owner, d.id)));
    expect(runs.map((d) => [d.run, d.chunkCount])).toEqual([[RUN.done, 1], [RUN.running, 0], [RUN.done, 1]]);
    const stored: { content: string }[] = await db.query(`SELECT content FROM chunk WHERE knowledge_base_id = $1 ORDER BY content`, [kb.id]);
    expect(stored.map((row) => row.content)).toEqual(["alpha", "gamma"]);
  });
});

describe("uploading", () => {
  test("the same file name uploaded five times at once gives five documents with distinct names", async () => {
    const kb = await server.services.knowledgeBases.create(owner, { name: "Concurrent" });
    const uploads = await Promise.all(Array.from({ length: 5 }, (_, i) => server.services.documents.upload(owner, kb.id, [text("report.txt", `version ${i}`)])));
    const names = uploads.map((u) => u.documents[0].name).sort();
    expect(names).toEqual(["report(1).txt", "report(2).txt", "report(3).txt", "report(4).txt", "report.txt"]);
    expect((await server.services.knowledgeBases.accessible(owner, kb.id)).documentCount).toBe(5);
  });
});

describe("another tenant", () => {
  test("sees none of the knowledge bases, documents or chunks, and can change nothing", async () => {
    const kb = await server.services.knowledgeBases.create(owner, { name: "Private" });
    const { documents } = await server.services.documents.upload(owner, kb.id, [text("secret.txt", "The launch code is 1234.")]);
    await server.services.documents.runParsing(owner, [documents[0].id]);
    await waitForRun(documents[0].id, [RUN.done]);
    const chunk = (await server.services.chunks.list(owner, documents[0].id)).items[0];

    expect((await server.services.knowledgeBases.list(stranger)).items.map((k) => k.id)).not.toContain(kb.id);
    await expect(server.services.knowledgeBases.accessible(stranger, kb.id)).rejects.toMatchObject({ kind: "NOT_FOUND" });
    await expect(server.services.knowledgeBases.update(stranger, kb.id, { name: "Mine" })).rejects.toMatchObject({ kind: "NOT_FOUND" });
    await expect(server.services.documents.list(stranger, kb.id)).rejects.toMatchObject({ kind: "NOT_FOUND" });
    await expect(server.services.documents.upload(stranger, kb.id, [text("x.txt", "x")])).rejects.toMatchObject({ kind: "NOT_FOUND" });
    await expect(server.services.documents.delete(stranger, [documents[0].id])).rejects.toMatchObject({ kind: "NOT_FOUND" });
    await expect(server.services.chunks.list(stranger, documents[0].id)).rejects.toMatchObject({ kind: "NOT_FOUND" });
    await expect(server.services.chunks.setAvailable(stranger, [chunk.id], false)).rejects.toMatchObject({ kind: "NOT_FOUND" });
    await expect(server.services.chunks.delete(stranger, [chunk.id])).rejects.toMatchObject({ kind: "NOT_FOUND" });

    const overGraphQL = await server.graphql(`query($id: ID!) { chunks(documentId: $id) { total } }`, { id: documents[0].id }, strangerToken);
    expect(overGraphQL.errors?.[0].extensions.code).toBe("NOT_FOUND");
    // A citation's chunk opens for its tenant only.
    const CHUNK = `query($id: ID!) { chunk(id: $id) { id documentId content page positions { page x0 x1 top bottom } } }`;
    expect((await server.graphql(CHUNK, { id: chunk.id }, ownerToken)).data).toEqual({
      chunk: { id: chunk.id, documentId: documents[0].id, content: "The launch code is 1234.", page: null, positions: [] },
    });
    expect((await server.graphql(CHUNK, { id: chunk.id }, strangerToken)).errors?.[0].extensions.code).toBe("NOT_FOUND");
    expect((await server.graphql(CHUNK, { id: "0".repeat(32) }, ownerToken)).errors?.[0].extensions).toMatchObject({ code: "NOT_FOUND", messageKey: "errors.knowledge.chunkNotFound" });
    const after = await server.services.chunks.list(owner, documents[0].id);
    expect(after.items.map((c) => [c.id, c.available])).toEqual([[chunk.id, true]]);
  });
});
