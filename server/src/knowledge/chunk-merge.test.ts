import { MAX_CHUNK_TOKENS } from "../ingestion/chunkers/parser-params";
import { countTokens } from "../models/tokens";
import type { SignedIn } from "../policies/principal";
import { DomainError } from "../platform/errors";
import { signUpAndIn, startTestServer, type TestServer } from "../testing/app";
import { parsedKnowledgeBase } from "../testing/knowledge-bases";
import { refusal } from "../testing/refusal";
import type { Chunk } from "./chunk.entity";
import { ChunkMerge, MergeSourceAction, MergeTarget } from "./chunk-merge.entity";
import type { MergeInput } from "./chunk-merge.service";
import { RUN } from "./document.entity";
import type { KnowledgeBase } from "./knowledge-base.entity";

/** Merging chosen chunks into one chunk or a new document, through the real server: embedded database, built-in embedding, the parse pipeline. */

let server: TestServer;
let owner: SignedIn;
let ownerToken: string;
let stranger: SignedIn;
let kb: KnowledgeBase;
let documentIds: string[];

const FILES = {
  "lighthouse.txt": "The lighthouse keeper trims the lamp wick every evening before dusk.",
  "ferry.txt": "The ferry to the island leaves the harbour twice a day in summer.",
  "orchard.txt": "Apple trees in the orchard are pruned in late winter.",
  "bakery.txt": "The village bakery sells rye loaves on market days.",
};

async function principal(token: string): Promise<SignedIn> {
  const p = await server.services.principalFor(`Bearer ${token}`);
  if (p.kind === "anonymous" || p.kind === "share" || p.kind === "flowShare") throw new Error("not signed in");
  return p;
}

/** The chunks of a parsed document of the fixture, by its file name. */
async function chunksOf(name: keyof typeof FILES): Promise<Chunk[]> {
  const documentId = documentIds[Object.keys(FILES).indexOf(name)];
  return (await server.services.chunks.list(owner, documentId, { pageSize: 0 })).items;
}

const retrieve = (question: string) => server.services.retrieval.retrieve(owner, { question, knowledgeBaseIds: [kb.id] });
const merges = () => server.services.platform.db.getRepository(ChunkMerge).count();
const chunkCount = async (): Promise<number> => Number((await server.services.platform.db.query(`SELECT count(*) AS n FROM chunk WHERE tenant_id = $1`, [kb.tenantId]))[0].n);

beforeAll(async () => {
  server = await startTestServer();
  const signedUp = await signUpAndIn(server);
  ownerToken = signedUp.token;
  owner = await principal(ownerToken);
  stranger = await principal((await signUpAndIn(server)).token);
  ({ knowledgeBase: kb, documentIds } = await parsedKnowledgeBase(server, owner, FILES, { name: "Coast" }));
}, 120_000);

afterAll(() => server?.close());

describe("merging into one chunk", () => {
  test("stores the edited text as a new chunk of the chosen document, embedded and indexed: retrieval finds it", async () => {
    const [lamp] = await chunksOf("lighthouse.txt");
    const [ferry] = await chunksOf("ferry.txt");
    const text = "The lighthouse keeper checks the foghorn when the ferry is late.";
    const { chunk, merge, document } = await server.services.chunkMerges.merge(owner, { chunkIds: [lamp.id, ferry.id], content: `  ${text}\n`, target: MergeTarget.chunk, documentId: ferry.documentId });
    expect(chunk).toMatchObject({ content: text, kind: "manual", documentId: ferry.documentId, knowledgeBaseId: kb.id, available: true });
    expect(document.chunkCount).toBe(2);
    expect(merge).toMatchObject({ target: "chunk", targetChunkId: chunk!.id, targetDocumentId: ferry.documentId, createdBy: owner.user.id, sourceAction: "keep" });
    const hits = (await retrieve("foghorn")).hits;
    expect(hits[0].chunk.id).toBe(chunk!.id);
    const found = await server.services.chunks.list(owner, ferry.documentId, { search: "foghorn" });
    expect(found.items.map((c) => c.id)).toEqual([chunk!.id]);
    // The sources are untouched by default.
    expect((await server.services.chunks.get(owner, lamp.id)).available).toBe(true);
  });

  test("records its sources in order with their text as it was, shown for the merged chunk's document after the sources change", async () => {
    const [orchard] = await chunksOf("orchard.txt");
    const [bakery] = await chunksOf("bakery.txt");
    const { chunk } = await server.services.chunkMerges.merge(owner, { chunkIds: [bakery.id, orchard.id], content: "Rye loaves and apple trees.", target: MergeTarget.chunk, documentId: orchard.documentId });
    await server.services.chunks.update(owner, bakery.id, { content: "The bakery now sells spelt." });
    const answer = await server.graphql<{ chunkMerges: { target: string; targetChunkId: string; sources: { chunkId: string; documentName: string; content: string }[] }[] }>(
      `query($id: ID!) { chunkMerges(documentId: $id) { target targetChunkId sources { chunkId documentName content } } }`,
      { id: orchard.documentId },
      ownerToken,
    );
    expect(answer.data!.chunkMerges).toEqual([
      {
        target: "chunk",
        targetChunkId: chunk!.id,
        sources: [
          { chunkId: bakery.id, documentName: "bakery.txt", content: FILES["bakery.txt"] },
          { chunkId: orchard.id, documentName: "orchard.txt", content: FILES["orchard.txt"] },
        ],
      },
    ]);
    expect(await refusal(server.services.chunkMerges.ofDocument(stranger, orchard.documentId))).toEqual({ kind: "NOT_FOUND", messageKey: "errors.knowledge.documentNotFound" });
  });

  test("disables the sources when asked: they are no longer retrieved", async () => {
    const { knowledgeBase, documentIds: ids } = await parsedKnowledgeBase(server, owner, { "a.txt": "Quinces ripen slowly in autumn.", "b.txt": "Medlars are eaten when bletted." });
    const sources = await Promise.all(ids.map(async (id) => (await server.services.chunks.list(owner, id)).items[0]));
    await server.services.chunkMerges.merge(owner, { chunkIds: sources.map((c) => c.id), content: "Quinces and medlars are autumn fruit.", target: MergeTarget.chunk, documentId: ids[0], sourceAction: MergeSourceAction.disable });
    for (const source of sources) expect((await server.services.chunks.get(owner, source.id)).available).toBe(false);
    const hits = (await server.services.retrieval.retrieve(owner, { question: "bletted medlars", knowledgeBaseIds: [knowledgeBase.id] })).hits;
    expect(hits.map((h) => h.chunk.content)).toEqual(["Quinces and medlars are autumn fruit."]);
  });

  test("removes the sources when asked", async () => {
    const { documentIds: ids } = await parsedKnowledgeBase(server, owner, { "c.txt": "Herons fish in the shallows.", "d.txt": "Egrets follow the cattle." });
    const sources = await Promise.all(ids.map(async (id) => (await server.services.chunks.list(owner, id)).items[0]));
    const { chunk } = await server.services.chunkMerges.merge(owner, { chunkIds: sources.map((c) => c.id), content: "Herons and egrets.", target: MergeTarget.chunk, documentId: ids[1], sourceAction: MergeSourceAction.remove });
    for (const source of sources) expect(await refusal(server.services.chunks.get(owner, source.id))).toEqual({ kind: "NOT_FOUND", messageKey: "errors.knowledge.chunkNotFound" });
    expect((await server.services.chunks.list(owner, ids[1])).items.map((c) => c.id)).toEqual([chunk!.id]);
    expect((await server.services.documents.accessible(owner, ids[0])).chunkCount).toBe(0);
  });
});

describe("merging into a new document", () => {
  test("stores the text as a text document named by the user (unique among the knowledge base's), parsed like an upload, with its sources", async () => {
    const [lamp] = await chunksOf("lighthouse.txt");
    const [orchard] = await chunksOf("orchard.txt");
    const content = "Keepers and orchards.\n\nThe lighthouse keeper grows apples beside the tower.";
    const input: MergeInput = { chunkIds: [lamp.id, orchard.id], content, target: MergeTarget.document, knowledgeBaseId: kb.id, documentName: "Keeper notes" };
    const first = await server.services.chunkMerges.merge(owner, input);
    const second = await server.services.chunkMerges.merge(owner, { ...input, content: "A second note of the keeper." });
    expect([first.document.name, second.document.name]).toEqual(["Keeper notes.txt", "Keeper notes(1).txt"]);
    expect(first.chunk).toBeNull();
    expect(first.merge).toMatchObject({ target: "document", targetDocumentId: first.document.id, targetChunkId: null });
    let document = first.document;
    while (document.run === RUN.running) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      document = await server.services.documents.accessible(owner, document.id);
    }
    expect(document.run).toBe(RUN.done);
    expect((await server.services.documents.fileBytes(document)).toString()).toBe(content);
    expect((await retrieve("apples beside the tower")).hits[0].chunk.documentId).toBe(document.id);
    const [shown] = await server.services.chunkMerges.ofDocument(owner, document.id);
    expect(shown.sources.map(({ chunkId, content }) => ({ chunkId, content }))).toEqual([
      { chunkId: lamp.id, content: FILES["lighthouse.txt"] },
      { chunkId: orchard.id, content: FILES["orchard.txt"] },
    ]);
  });
});

describe("refusals change nothing", () => {
  let lamp: Chunk;
  let ferry: Chunk;
  beforeAll(async () => {
    [lamp] = await chunksOf("lighthouse.txt");
    [ferry] = await chunksOf("ferry.txt");
  });

  async function refused(who: SignedIn, input: Partial<MergeInput>): Promise<{ kind: string; messageKey: string; fields: Record<string, string> }> {
    const [chunksBefore, mergesBefore] = [await chunkCount(), await merges()];
    const full: MergeInput = { chunkIds: [lamp.id, ferry.id], content: "Merged.", target: MergeTarget.chunk, documentId: lamp.documentId, sourceAction: MergeSourceAction.remove, ...input };
    let error: unknown;
    await server.services.chunkMerges.merge(who, full).catch((e: unknown) => (error = e));
    if (!(error instanceof DomainError)) throw new Error(`expected a refusal, got ${String(error)}`);
    expect([await chunkCount(), await merges()]).toEqual([chunksBefore, mergesBefore]);
    expect((await server.services.chunks.get(owner, lamp.id)).available).toBe(true);
    return { kind: error.kind, messageKey: error.messageKey, fields: Object.fromEntries(error.fields.map((f) => [f.field, f.messageKey])) };
  }

  test("fewer than two chunks, an empty text, a missing target", async () => {
    expect((await refused(owner, { chunkIds: [lamp.id, lamp.id] })).fields).toEqual({ chunkIds: "errors.merge.tooFewChunks" });
    expect((await refused(owner, { content: " \n " })).fields).toEqual({ content: "errors.merge.textRequired" });
    expect((await refused(owner, { documentId: undefined })).fields).toEqual({ documentId: "errors.merge.documentRequired" });
    expect((await refused(owner, { target: MergeTarget.document, documentName: "  " })).fields).toEqual({ knowledgeBaseId: "errors.merge.knowledgeBaseRequired", documentName: "errors.knowledge.documentNameRequired" });
    expect((await refused(owner, { target: MergeTarget.document, knowledgeBaseId: kb.id, documentName: "n".repeat(300) })).fields).toEqual({ documentName: "errors.knowledge.nameTooLongBytes" });
  });

  test("a text longer than one chunk may be, when merging into a chunk", async () => {
    const refusedLong = await refused(owner, { content: "word ".repeat(3000) });
    expect(refusedLong).toMatchObject({ kind: "BAD_REQUEST", fields: { content: "errors.merge.chunkTooLong" } });
  });

  test("a chunk the principal may not read, a target it may not manage", async () => {
    expect(await refused(stranger, {})).toMatchObject({ kind: "NOT_FOUND", messageKey: "errors.knowledge.chunkNotFound" });
    expect(await refused(owner, { chunkIds: [lamp.id, "0123456789abcdef"] })).toMatchObject({ kind: "NOT_FOUND", messageKey: "errors.knowledge.chunkNotFound" });
    const theirs = await server.services.knowledgeBases.create(stranger, { name: "theirs" });
    const theirDocument = await server.services.documents.createEmpty(stranger, theirs.id, "theirs.txt");
    expect(await refused(owner, { documentId: theirDocument.id })).toMatchObject({ kind: "NOT_FOUND", messageKey: "errors.knowledge.documentNotFound" });
    expect(await refused(owner, { target: MergeTarget.document, knowledgeBaseId: theirs.id, documentName: "mine" })).toMatchObject({ kind: "NOT_FOUND", messageKey: "errors.knowledge.notFound" });
  });

  test("a target chunk in a knowledge base with another embedding model", async () => {
    const other = await server.services.knowledgeBases.create(owner, { name: "other model", embeddingModel: "BAAI/bge-small-en-v1.5@Builtin" });
    const target = await server.services.documents.createEmpty(owner, other.id, "other.txt");
    expect(await refused(owner, { documentId: target.id })).toMatchObject({ kind: "BAD_REQUEST", messageKey: "errors.merge.embeddingModelsDiffer" });
  });

  test("over GraphQL, a refusal is translated, with its field", async () => {
    const answer = await server.graphql(
      `mutation($input: MergeChunksInput!) { mergeChunks(input: $input) { merge { id } } }`,
      { input: { chunkIds: [lamp.id], content: "x", target: "chunk", documentId: lamp.documentId } },
      ownerToken,
    );
    expect(answer.errors![0]).toMatchObject({ message: "Please select at least 2 chunks to merge.", extensions: { code: "BAD_USER_INPUT", fields: [{ field: "chunkIds", messageKey: "errors.merge.tooFewChunks" }] } });
  });
});

describe("the merge page's sources", () => {
  test("lists the chosen chunks in the order given, with their documents and knowledge bases", async () => {
    const [lamp] = await chunksOf("lighthouse.txt");
    const [bakery] = await chunksOf("bakery.txt");
    const answer = await server.graphql<{ mergeSources: { chunk: { id: string }; document: { name: string }; knowledgeBase: { name: string } }[] }>(
      `query($ids: [ID!]!) { mergeSources(chunkIds: $ids) { chunk { id } document { name } knowledgeBase { name } } }`,
      { ids: [bakery.id, lamp.id] },
      ownerToken,
    );
    expect(answer.data!.mergeSources).toEqual([
      { chunk: { id: bakery.id }, document: { name: "bakery.txt" }, knowledgeBase: { name: "Coast" } },
      { chunk: { id: lamp.id }, document: { name: "lighthouse.txt" }, knowledgeBase: { name: "Coast" } },
    ]);
    expect(await refusal(server.services.chunkMerges.sources(stranger, [lamp.id, bakery.id]))).toEqual({ kind: "NOT_FOUND", messageKey: "errors.knowledge.chunkNotFound" });
  });

  test("sizes the merged text as it is edited, in the tokens chunk sizes are counted in, with the most one chunk holds", async () => {
    const text = "Rye loaves and apple trees.";
    const answer = await server.graphql<{ mergeTextSize: { tokens: number; maxChunkTokens: number } }>(`query($text: String!) { mergeTextSize(text: $text) { tokens maxChunkTokens } }`, { text }, ownerToken);
    expect(answer.data!.mergeTextSize).toEqual({ tokens: countTokens(text), maxChunkTokens: MAX_CHUNK_TOKENS });
  });
});
