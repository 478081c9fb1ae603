import { isFinal, type AnswerEvent } from "../chat/answer-stream";
import { startFakeChatServer, type FakeChatServer } from "../chat/testing/fake-chat-server";
import { actorOf, addFakeModel, chatUser, parsedKnowledgeBase, type ChatUser } from "../chat/testing/support";
import type { SignedIn } from "../policies/principal";
import { DomainError } from "../platform/errors";
import { newId } from "../platform/ids";
import { startTestServer, type TestServer } from "../testing/app";
import { SearchRecord } from "./search-record.entity";
import { QUESTION_MAX_LENGTH, type SearchService } from "./search.service";

/**
 * The search page's service on a real server (embedded database, built-in embedding and extractive chat model,
 * the parse pipeline), and a local OpenAI-compatible model server for the mind map a language model draws.
 */

let server: TestServer;
let fake: FakeChatServer;
let search: SearchService;
let owner: SignedIn;
let stranger: SignedIn;
let ownerUser: ChatUser;
let tides: { datasetId: string; documentIds: string[] };
let bread: { datasetId: string; documentIds: string[] };

const TIDES = {
  "tides.txt": "Tides are caused by the gravitational pull of the moon on the oceans. The highest tides of the month are called spring tides.",
  "moon.txt": "The moon orbits the earth every twenty-seven days. Its gravitational pull also slows the rotation of the earth.",
  "harbour.txt": "Harbour pilots read tide tables before they bring a ship in, because the moon decides the depth of the channel.",
};
const BREAD = { "bread.txt": "Sourdough bread rises slowly because wild yeast ferments the dough overnight, under the light of the moon." };

const principalOf = async (user: ChatUser): Promise<SignedIn> => (await actorOf(server, user)).principal as SignedIn;
const partsOf = (files: Record<string, string>) => Object.entries(files).map(([name, data]) => ({ name, data }));

async function refusal(work: Promise<unknown>): Promise<DomainError> {
  try {
    await work;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

/** Follows the summary answer's stream to its final event (waits for the state, not for a time). */
async function finalEvent(id: string): Promise<AnswerEvent> {
  let last: AnswerEvent | null = null;
  for await (const event of await search.answerStream(owner, id)) {
    last = event;
    if (isFinal(event.status)) break;
  }
  if (!last) throw new Error("the stream ended without an event");
  return last;
}

beforeAll(async () => {
  server = await startTestServer({ MODEL_CACHE_DIR: "/tmp/cairn-model-cache" });
  search = server.services.search;
  fake = await startFakeChatServer({ paceMs: 1 });
  ownerUser = await chatUser(server);
  const strangerUser = await chatUser(server);
  [owner, stranger] = [await principalOf(ownerUser), await principalOf(strangerUser)];
  [tides, bread] = await Promise.all([parsedKnowledgeBase(server, ownerUser, partsOf(TIDES)), parsedKnowledgeBase(server, ownerUser, partsOf(BREAD))]);
}, 240_000);

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

describe("the matching chunks", () => {
  it("come with the question's terms highlighted, their document and knowledge base, and the filters' counts", async () => {
    const result = await search.chunks(owner, { question: "moon", knowledgeBaseIds: [tides.datasetId, bread.datasetId] });
    expect(result.total).toBe(4);
    expect(result.hits).toHaveLength(4);
    for (const hit of result.hits) expect(hit.highlight).toMatch(/<em>moon<\/em>/i);
    const breadHit = result.hits.find((hit) => hit.documentName === "bread.txt")!;
    expect(breadHit.knowledgeBaseName).toBe((await server.services.knowledgeBases.accessible(owner, bread.datasetId)).name);
    expect(result.documents.map((d) => d.name).sort()).toEqual(["bread.txt", "harbour.txt", "moon.txt", "tides.txt"]);
    expect(result.documents.find((d) => d.name === "bread.txt")).toMatchObject({ knowledgeBaseId: bread.datasetId, count: 1 });
    expect(result.knowledgeBases).toEqual([
      expect.objectContaining({ id: tides.datasetId, count: 3 }),
      expect.objectContaining({ id: bread.datasetId, count: 1 }),
    ]);
  });

  it("are filtered by document and by knowledge base, and paged", async () => {
    const [harbour] = (await search.chunks(owner, { question: "moon", knowledgeBaseIds: [tides.datasetId] })).documents.filter((d) => d.name === "harbour.txt");
    const oneDocument = await search.chunks(owner, { question: "moon", knowledgeBaseIds: [tides.datasetId], documentIds: [harbour.id] });
    expect(oneDocument.hits.map((hit) => hit.documentName)).toEqual(["harbour.txt"]);
    const oneKnowledgeBase = await search.chunks(owner, { question: "moon", knowledgeBaseIds: [bread.datasetId] });
    expect(oneKnowledgeBase.hits.map((hit) => hit.documentName)).toEqual(["bread.txt"]);

    const first = await search.chunks(owner, { question: "moon", knowledgeBaseIds: [tides.datasetId], page: 1, pageSize: 2 });
    const second = await search.chunks(owner, { question: "moon", knowledgeBaseIds: [tides.datasetId], page: 2, pageSize: 2 });
    expect([first.total, first.hits.length, second.total, second.hits.length]).toEqual([3, 2, 3, 1]);
    expect(second.hits[0].chunk.id).not.toBe(first.hits[0].chunk.id);
    expect(second.hits[0].chunk.id).not.toBe(first.hits[1].chunk.id);
  });

  it("refuse bad input with translated errors, and another tenant's knowledge base as not found", async () => {
    expect((await refusal(search.chunks(owner, { question: "  ", knowledgeBaseIds: [tides.datasetId] }))).messageKey).toBe("errors.search.questionRequired");
    expect((await refusal(search.chunks(owner, { question: "moon", knowledgeBaseIds: [] }))).messageKey).toBe("errors.search.knowledgeBaseRequired");
    const tooLong = await refusal(search.start(owner, { question: "m".repeat(QUESTION_MAX_LENGTH + 1), knowledgeBaseIds: [tides.datasetId] }));
    expect([tooLong.kind, tooLong.messageKey]).toEqual(["BAD_REQUEST", "errors.search.questionTooLong"]);
    expect((await refusal(search.chunks(owner, { question: "moon", knowledgeBaseIds: [tides.datasetId], pageSize: 500 }))).messageKey).toBe("errors.knowledge.atMost");
    const foreign = await refusal(search.chunks(stranger, { question: "moon", knowledgeBaseIds: [tides.datasetId] }));
    expect(foreign.kind).toBe("NOT_FOUND");
    expect((await refusal(search.start(stranger, { question: "moon", knowledgeBaseIds: [tides.datasetId] }))).kind).toBe("NOT_FOUND");
    expect((await search.history(stranger)).total).toBe(0);
  });
});

describe("a search kept in the history", () => {
  it("streams a cited summary answer, stores it with its citations, and lists it newest first", async () => {
    const started = await search.start(owner, { question: "What causes tides?", knowledgeBaseIds: [tides.datasetId] });
    expect(started).toMatchObject({ status: "searching", content: "", question: "What causes tides?" });
    const final = await finalEvent(started.id);
    expect(final.status).toBe("done");
    expect(final.content).toMatch(/gravitational pull of the moon/);
    expect(final.content).toMatch(/\[ID:\d+\]/);

    const stored = await search.record(owner, started.id);
    expect(stored.content).toBe(final.content);
    expect(stored.reference?.chunks.some((chunk) => chunk.document_name === "tides.txt")).toBe(true);

    const later = await search.start(owner, { question: "Why does sourdough rise?", knowledgeBaseIds: [bread.datasetId] });
    await finalEvent(later.id);
    const history = await search.history(owner);
    expect(history.items.map((r) => r.question).slice(0, 2)).toEqual(["Why does sourdough rise?", "What causes tides?"]);
    expect(history.total).toBeGreaterThanOrEqual(2);
    expect((await search.history(owner, { search: "sourdough" })).items.map((r) => r.id)).toEqual([later.id]);
    expect((await refusal(search.record(stranger, started.id))).kind).toBe("NOT_FOUND");
  });

  it("answers only from the documents chosen", async () => {
    const harbour = (await search.chunks(owner, { question: "moon", knowledgeBaseIds: [tides.datasetId] })).documents.find((d) => d.name === "harbour.txt")!.id;
    const started = await search.start(owner, { question: "moon", knowledgeBaseIds: [tides.datasetId], documentIds: [harbour] });
    await finalEvent(started.id);
    const stored = await search.record(owner, started.id);
    expect(new Set(stored.reference?.chunks.map((chunk) => chunk.document_name))).toEqual(new Set(["harbour.txt"]));
  });

  it("keeps its related questions, drawn with the built-in model from the knowledge bases searched", async () => {
    const started = await search.start(owner, { question: "moon", knowledgeBaseIds: [bread.datasetId] });
    const questions = await search.relatedQuestions(owner, started.id);
    expect(questions.length).toBeGreaterThan(0);
    expect(questions.join(" ").toLowerCase()).toMatch(/sourdough|yeast|dough|bread/);
    expect(questions.join(" ").toLowerCase()).not.toMatch(/tide|harbour|orbit/);
    expect((await search.record(owner, started.id)).relatedQuestions).toEqual(questions);
  });

  it("draws the built-in mind map from the retrieved chunks (question, documents, key phrases), labelled extractive, and keeps it", async () => {
    const started = await search.start(owner, { question: "moon", knowledgeBaseIds: [tides.datasetId] });
    const notReady = await search.record(owner, started.id);
    if (!isFinal(notReady.status)) expect((await refusal(search.mindMap(owner, started.id))).messageKey).toBe("errors.search.answerNotReady");
    await finalEvent(started.id);
    const map = await search.mindMap(owner, started.id);
    expect(map.source).toBe("extractive");
    expect(map.root.label).toBe("moon");
    expect(map.root.children.map((c) => c.label).sort()).toEqual(["harbour.txt", "moon.txt", "tides.txt"]);
    expect(map.root.children.every((c) => c.children.length > 0)).toBe(true);
    expect((await search.record(owner, started.id)).mindMap).toEqual(map);
  });

  it("asks a chat model that gives JSON-schema output for the answer's mind map", async () => {
    const model = await addFakeModel(server, ownerUser, fake);
    fake.reply = (messages) =>
      messages.some((m) => m.content.includes("mind maps"))
        ? JSON.stringify({ topics: [{ title: "Moon's pull", points: ["raises tides", "slows the earth"] }] })
        : "The moon's gravitational pull causes tides [ID:0].";
    // Model settings are changed signed in, not with an API key.
    const session = (await server.services.principalFor(`Bearer ${ownerUser.token}`)) as SignedIn;
    await server.services.models.setDefaults(session, { chat: model });
    try {
      const started = await search.start(owner, { question: "What causes tides?", knowledgeBaseIds: [tides.datasetId] });
      expect((await finalEvent(started.id)).content).toContain("[ID:0]");
      const map = await search.mindMap(owner, started.id);
      expect(map).toEqual({
        source: "model",
        root: { id: "root", label: "What causes tides?", children: [{ id: "t0", label: "Moon's pull", children: [{ id: "t0-p0", label: "raises tides", children: [] }, { id: "t0-p1", label: "slows the earth", children: [] }] }] },
      });
      const request = fake.requests.filter((r) => r.path.endsWith("/chat/completions")).at(-1)!;
      expect(request.body.response_format).toMatchObject({ type: "json_schema" });
    } finally {
      await server.services.models.setDefaults(session, { chat: "" });
    }
  });

  it("is removed from the history by its maker only", async () => {
    const started = await search.start(owner, { question: "spring tides", knowledgeBaseIds: [tides.datasetId] });
    await finalEvent(started.id);
    expect((await refusal(search.delete(stranger, [started.id]))).kind).toBe("NOT_FOUND");
    await search.delete(owner, [started.id]);
    expect((await refusal(search.record(owner, started.id))).messageKey).toBe("errors.search.notFound");
    expect((await search.history(owner)).items.map((r) => r.id)).not.toContain(started.id);
  });

  it("marks an answer a stopped server was writing as failed", async () => {
    const id = newId();
    await server.platform.db.getRepository(SearchRecord).insert({ id, tenantId: owner.tenantId, createdBy: owner.user.id, question: "interrupted", knowledgeBaseIds: [tides.datasetId], status: "streaming", content: "half" });
    expect(await search.closeInterruptedAnswers()).toBeGreaterThanOrEqual(1);
    expect(await search.record(owner, id)).toMatchObject({ status: "failed", content: "half" });
  });
});

describe("over GraphQL", () => {
  it("gives the page its chunks, kept search with citations, history and deletion; bad input is a translated BAD_USER_INPUT", async () => {
    const token = ownerUser.token;
    const chunks = await server.graphql<{ searchChunks: { total: number; hits: { highlight: string; knowledgeBaseName: string; chunk: { id: string } }[]; documents: { name: string; count: number }[] } }>(
      `query($input: SearchChunksInput!) { searchChunks(input: $input) { total hits { highlight knowledgeBaseName chunk { id } } documents { name count } } }`,
      { input: { question: "spring tides", knowledgeBaseIds: [tides.datasetId], pageSize: 1 } },
      token,
    );
    expect(chunks.data?.searchChunks.hits[0].highlight).toMatch(/<em>spring<\/em> <em>tides<\/em>/);
    expect(chunks.data?.searchChunks.hits).toHaveLength(1);

    const started = await server.graphql<{ startSearch: { id: string; status: string } }>(`mutation($input: SearchInput!) { startSearch(input: $input) { id status } }`, { input: { question: "spring tides", knowledgeBaseIds: [tides.datasetId] } }, token);
    const id = started.data!.startSearch.id;
    await finalEvent(id);
    const kept = await server.graphql<{ searchRecord: { answer: string; status: string; references: { documentName: string }[]; documents: { documentName: string }[] } }>(
      `query($id: ID!) { searchRecord(id: $id) { answer status references { documentName } documents { documentName } } }`,
      { id },
      token,
    );
    expect(kept.data?.searchRecord).toMatchObject({ status: "done", references: expect.arrayContaining([{ documentName: "tides.txt" }]) });
    expect(kept.data?.searchRecord.answer).toMatch(/spring tides/);
    const history = await server.graphql<{ searchHistory: { total: number; items: { id: string }[] } }>(`query { searchHistory(pageSize: 1) { total items { id } } }`, {}, token);
    expect(history.data?.searchHistory.items).toEqual([{ id }]);
    expect((await server.graphql(`mutation($ids: [ID!]!) { deleteSearchRecords(ids: $ids) }`, { ids: [id] }, token)).data).toEqual({ deleteSearchRecords: true });

    const bad = await server.graphql(`mutation($input: SearchInput!) { startSearch(input: $input) { id } }`, { input: { question: "", knowledgeBaseIds: [] } }, token);
    expect(bad.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", messageKey: "errors.search.questionRequired" });
  });
});

describe("a knowledge base in the recycle bin", () => {
  it("is no longer searched, and its kept searches are still shown as they were", async () => {
    const kept = await search.start(owner, { question: "sourdough", knowledgeBaseIds: [bread.datasetId] });
    await finalEvent(kept.id);
    await server.services.knowledgeBases.delete(owner, [bread.datasetId]);
    expect((await refusal(search.chunks(owner, { question: "moon", knowledgeBaseIds: [bread.datasetId] }))).messageKey).toBe("errors.knowledge.notFound");
    expect((await refusal(search.start(owner, { question: "moon", knowledgeBaseIds: [tides.datasetId, bread.datasetId] }))).kind).toBe("NOT_FOUND");
    expect((await search.record(owner, kept.id)).content).toMatch(/sourdough/i);
  });
});
