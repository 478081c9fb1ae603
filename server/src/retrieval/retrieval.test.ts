import type { SignedIn } from "../policies/principal";
import type { KnowledgeBase } from "../knowledge/knowledge-base.entity";
import { ensureVectorIndex, indexVectorsWhenLarge } from "../knowledge/chunk-store";
import { packPostings, PostingsPacker } from "../knowledge/packed-postings";
import { EXACT_SCAN_LIMIT } from "../knowledge/vector-index";
import { nearestChunks, vectorSimilarities } from "./vector-search";
import { CHANGED_CHUNKS_READ, packedKeywordSearch, postingsKeywordSearch, type KeywordScope } from "./keyword-search";
import { weightedQueryTerms } from "./query-terms";
import { SEARCH_TERMS_VERSION, upgradeSearchTerms } from "../knowledge/search-terms-upgrade";
import { signUpAndIn, startTestServer, type TestServer } from "../testing/app";
import { parsedKnowledgeBase as parsedFixture } from "../testing/knowledge-bases";

/** Retrieval through the real server: embedded database, built-in embedding, the parse pipeline. */

let server: TestServer;
let owner: SignedIn;
let stranger: SignedIn;
let kb: KnowledgeBase;

const FILES = {
  "turbines.txt": "Wind turbines convert the kinetic energy of wind into electricity. Turbine blades are inspected every spring.",
  "bread.txt": "Sourdough bread rises slowly because wild yeast ferments the dough overnight.",
  "tides.txt": "Tides are caused by the gravitational pull of the moon on the oceans.",
  "chinese.txt": "检索增强生成系统先从知识库中检索相关段落，再让模型生成答案。",
  "cytokines.txt": "Serum IL6, TNF-alpha and IFN-γ concentrations rose in patients with sepsis.",
};

async function principal(token: string): Promise<SignedIn> {
  const p = await server.services.principalFor(`Bearer ${token}`);
  if (p.kind === "anonymous" || p.kind === "share" || p.kind === "flowShare") throw new Error("not signed in");
  return p;
}

beforeAll(async () => {
  server = await startTestServer();
  owner = await principal((await signUpAndIn(server)).token);
  stranger = await principal((await signUpAndIn(server)).token);
  kb = await parsedKnowledgeBase("Mixed", FILES);
}, 120_000);

/** A new knowledge base of the owner's with `files` uploaded and parsed. */
async function parsedKnowledgeBase(name: string, files: Record<string, string>): Promise<KnowledgeBase> {
  return (await parsedFixture(server, owner, files, { name })).knowledgeBase;
}

afterAll(() => server?.close());

const retrieve = (question: string, extra: Record<string, unknown> = {}) =>
  server.services.retrieval.retrieve(owner, { question, knowledgeBaseIds: [kb.id], ...extra });

describe("retrieval", () => {
  test("finds the chunk about the question first, with hybrid = w·term + (1 − w)·vector", async () => {
    const result = await retrieve("How do wind turbines make electricity?", { vectorSimilarityWeight: 0.3 });
    expect(result.hits[0].documentName).toBe("turbines.txt");
    for (const hit of result.hits) {
      expect(hit.similarity).toBeCloseTo(0.7 * hit.termSimilarity + 0.3 * hit.vectorSimilarity, 6);
      expect(hit.similarity).toBeGreaterThanOrEqual(0.2);
    }
    expect(result.documents[0]).toMatchObject({ documentName: "turbines.txt", count: 1 });
    expect(result.timings.totalMs).toBeGreaterThan(0);
  });

  test("highlights the matched words when asked", async () => {
    const result = await retrieve("turbine blades", { highlight: true });
    expect(result.hits[0].highlight).toContain("<em>blades</em>");
    expect(result.hits[0].highlight).toMatch(/<em>[Tt]urbines?<\/em>/);
  });

  test("a Chinese question finds the Chinese chunk", async () => {
    const result = await retrieve("知识库检索");
    expect(result.hits[0].documentName).toBe("chinese.txt");
  });

  test("a question in Simplified script finds a passage in Traditional script, its words marked as written", async () => {
    const chinese = (await retrieve("知识库检索")).hits[0].chunk;
    const added = await server.services.chunks.add(owner, chinese.documentId, { content: "臺灣的高速鐵路連接臺北與高雄。" });
    try {
      const [first] = (await retrieve("台湾的高速铁路", { highlight: true })).hits;
      expect(first.chunk.id).toBe(added.id);
      expect(first.highlight).toBe("<em>臺灣</em>的<em>高速鐵路</em>連接臺北與高雄。");
    } finally {
      await server.services.chunks.delete(owner, [added.id]);
    }
  });

  test("part of a long Chinese word, which segmentation never gives apart, is found by its character bigrams", async () => {
    const chinese = (await retrieve("知识库检索")).hits[0].chunk;
    const added = await server.services.chunks.add(owner, chinese.documentId, { content: "中华人民共和国成立于1949年。" });
    try {
      // jieba reads the passage as one word, 中华人民共和国, and the question as 人民 and 共和.
      const hit = (await retrieve("人民共和", { similarityThreshold: 0 })).hits.find((h) => h.chunk.id === added.id);
      expect(hit?.termSimilarity).toBeGreaterThan(0);
    } finally {
      await server.services.chunks.delete(owner, [added.id]);
    }
  });

  test("a disabled chunk or document is never retrieved", async () => {
    const before = await retrieve("sourdough yeast");
    const hit = before.hits.find((h) => h.documentName === "bread.txt")!;
    await server.services.chunks.setAvailable(owner, [hit.chunk.id], false);
    expect((await retrieve("sourdough yeast")).hits.map((h) => h.documentName)).not.toContain("bread.txt");
    await server.services.chunks.setAvailable(owner, [hit.chunk.id], true);
    await server.services.documents.setEnabled(owner, [hit.chunk.documentId], false);
    expect((await retrieve("sourdough yeast")).hits.map((h) => h.documentName)).not.toContain("bread.txt");
    await server.services.documents.setEnabled(owner, [hit.chunk.documentId], true);
    expect((await retrieve("sourdough yeast")).hits[0].documentName).toBe("bread.txt");
  });

  test("the threshold drops weak hits, and paging slices what is left", async () => {
    const all = await retrieve("moon oceans wind bread", { similarityThreshold: 0 });
    expect(all.total).toBeGreaterThanOrEqual(3);
    const strict = await retrieve("moon oceans wind bread", { similarityThreshold: 0.99 });
    expect(strict.total).toBe(0);
    const second = await retrieve("moon oceans wind bread", { similarityThreshold: 0, page: 2, pageSize: 1 });
    expect(second.hits.map((h) => h.chunk.id)).toEqual([all.hits[1].chunk.id]);
  });

  test("in a knowledge base of one document, a question sharing part of its words clears the default threshold, and an unrelated one does not", async () => {
    const single = await parsedKnowledgeBase("One passage", { "rail.txt": "臺灣高速鐵路是連接臺北市與高雄市的高速鐵路系統，全長約350公里，最高營運時速為300公里。" });
    const retrieveDefaults = (question: string) => server.services.retrieval.retrieve(owner, { question, knowledgeBaseIds: [single.id] });
    // 高铁 (high-speed rail, abbreviated) is in no chunk: it must not outweigh the words that are.
    for (const question of ["台湾高铁最高时速是多少？", "高铁时速"]) expect((await retrieveDefaults(question)).hits.map((h) => h.documentName)).toEqual(["rail.txt"]);
    expect((await retrieveDefaults("乌龙茶产自哪里")).total).toBe(0);
  });

  test("an empty question returns nothing, and another tenant's knowledge base is never searched", async () => {
    expect((await retrieve("   ")).total).toBe(0);
    await expect(server.services.retrieval.retrieve(stranger, { question: "wind", knowledgeBaseIds: [kb.id] })).rejects.toMatchObject({ kind: "NOT_FOUND" });
  });

  test("term similarity is 1 − e^(−bm25 / Σ idf): below 1, and higher for a text with more of the question's words", async () => {
    const result = await retrieve("wind turbine blades electricity spring", { similarityThreshold: 0 });
    const turbines = result.hits.find((h) => h.documentName === "turbines.txt")!;
    expect(turbines.termSimilarity).toBeGreaterThan(0.5);
    expect(turbines.termSimilarity).toBeLessThan(1);
    for (const hit of result.hits.filter((h) => h !== turbines)) expect(hit.termSimilarity).toBeLessThan(turbines.termSimilarity);
  });

  test("a WordNet synonym of the question's word finds a text that lacks the word itself", async () => {
    const bread = (await retrieve("sourdough")).hits[0].chunk;
    const added = await server.services.chunks.add(owner, bread.documentId, { content: "The doctor measured the blood pressure of every patient." });
    try {
      const hit = (await retrieve("physician", { similarityThreshold: 0 })).hits.find((h) => h.chunk.id === added.id);
      expect(hit?.termSimilarity).toBeGreaterThan(0);
    } finally {
      await server.services.chunks.delete(owner, [added.id]);
    }
  });

  test("the postings follow the chunks: an edited chunk is found by its new words only, a deleted one not at all", async () => {
    const tides = (await retrieve("gravitational pull")).hits[0].chunk;
    const added = await server.services.chunks.add(owner, tides.documentId, { content: "Lighthouses guide ships along rocky coasts." });
    expect((await retrieve("lighthouses")).hits.map((h) => h.chunk.id)).toEqual([added.id]);
    await server.services.chunks.update(owner, added.id, { content: "Glaciers carve valleys over thousands of years." });
    const stale = (await retrieve("lighthouses", { similarityThreshold: 0 })).hits.find((h) => h.chunk.id === added.id);
    expect(stale?.termSimilarity ?? 0).toBe(0);
    expect((await retrieve("glaciers valleys")).hits[0].chunk.id).toBe(added.id);
    await server.services.chunks.delete(owner, [added.id]);
    expect((await retrieve("glaciers valleys", { similarityThreshold: 0 })).hits.map((h) => h.chunk.id)).not.toContain(added.id);
    const [stats] = await server.services.platform.db.query(
      `SELECT s.chunks, s.length, (SELECT count(*) FROM chunk WHERE knowledge_base_id = $1)::int AS actual_chunks,
         (SELECT sum(term_count) FROM chunk WHERE knowledge_base_id = $1)::int AS actual_length,
         (SELECT count(*) FROM chunk_term WHERE knowledge_base_id = $1)::int AS postings,
         (SELECT sum((SELECT count(*) FROM jsonb_object_keys(terms))) FROM chunk WHERE knowledge_base_id = $1)::int AS actual_postings
       FROM chunk_term_stats s WHERE s.knowledge_base_id = $1`,
      [kb.id],
    );
    expect(stats.chunks).toBe(stats.actual_chunks);
    expect(Number(stats.length)).toBe(stats.actual_length);
    expect(stats.postings).toBe(stats.actual_postings);
  });

  test("a very long question is answered, and the words it shares with a text still count", async () => {
    const question = `${"lorem ipsum dolor sit amet ".repeat(2000)} sourdough yeast`;
    const result = await retrieve(question, { similarityThreshold: 0 });
    expect(result.hits[0].documentName).toBe("bread.txt");
  });

  test("a knowledge base whose documents are not parsed yet finds nothing", async () => {
    const unparsed = await server.services.knowledgeBases.create(owner, { name: "Unparsed" });
    await server.services.documents.upload(owner, unparsed.id, [{ name: "wind.txt", data: Buffer.from("Wind turbines everywhere.") }]);
    const result = await server.services.retrieval.retrieve(owner, { question: "wind turbines", knowledgeBaseIds: [unparsed.id] });
    expect(result).toMatchObject({ total: 0, hits: [], documents: [] });
  });

  test("a question finds a compound or a Greek letter however the text writes it", async () => {
    const [compound] = (await retrieve("IL-6", { highlight: true })).hits;
    expect(compound?.documentName).toBe("cytokines.txt");
    expect(compound.highlight).toContain("<em>IL6</em>");
    expect((await retrieve("TNF-α")).hits[0]?.documentName).toBe("cytokines.txt");
    const [hit] = (await retrieve("IFN-gamma", { highlight: true })).hits;
    expect(hit.documentName).toBe("cytokines.txt");
    expect(hit.highlight).toContain("<em>IFN</em>-<em>γ</em>");
  });

  test("the search-terms upgrade gives chunks indexed by an older analysis their current terms, once", async () => {
    const { db } = server.services.platform;
    const [chunk] = (await retrieve("sepsis")).hits.map((h) => h.chunk);
    // As the analysis before ReanalyseSearchTerms1764200000000 left it: "IL6" and "α" as written, no joined compounds.
    await db.query(`UPDATE chunk SET terms = '{"serum": 1, "il6": 1, "tnf": 1, "α": 1, "sepsi": 1}', term_count = 5 WHERE id = $1`, [chunk.id]);
    expect((await retrieve("TNF-α", { similarityThreshold: 0 })).hits.find((h) => h.chunk.id === chunk.id)?.termSimilarity).toBeLessThan(0.5);
    expect(await db.query(`SELECT version FROM search_terms_analysis`)).toEqual([{ version: SEARCH_TERMS_VERSION }]);
    await db.query(`UPDATE search_terms_analysis SET version = 0`);
    expect(await upgradeSearchTerms(db)).toBe(1);
    expect(await db.query(`SELECT version FROM search_terms_analysis`)).toEqual([{ version: SEARCH_TERMS_VERSION }]);
    expect(await upgradeSearchTerms(db)).toBe(0);
    const [{ term_count }] = await db.query(`SELECT term_count FROM chunk WHERE id = $1`, [chunk.id]);
    expect(term_count).toBe(10);
    const postings = await db.query(`SELECT term FROM chunk_term WHERE chunk_id = $1 ORDER BY term`, [chunk.id]);
    expect(postings.map((p: { term: string }) => p.term)).toEqual(["alpha", "concentr", "gamma", "ifn", "ifngamma", "il6", "patient", "rose", "sepsi", "serum", "tnf", "tnfalpha"]);
    const [stats] = await db.query(
      `SELECT s.length, (SELECT sum(term_count) FROM chunk WHERE knowledge_base_id = $1)::int AS actual_length,
         (SELECT count(*) FROM chunk_term WHERE knowledge_base_id = $1)::int AS postings,
         (SELECT sum((SELECT count(*) FROM jsonb_object_keys(terms))) FROM chunk WHERE knowledge_base_id = $1)::int AS actual_postings
       FROM chunk_term_stats s WHERE s.knowledge_base_id = $1`,
      [kb.id],
    );
    expect(Number(stats.length)).toBe(stats.actual_length);
    expect(stats.postings).toBe(stats.actual_postings);
  });

  test("a knowledge base's page rank is added to the similarity of its chunks, which then come first", async () => {
    const ranked = await parsedKnowledgeBase("Ranked", { "almanac.txt": "The moon's pull raises two tides a day." });
    const both = (question: string) => server.services.retrieval.retrieve(owner, { question, knowledgeBaseIds: [kb.id, ranked.id] });
    const before = await both("tides moon gravitational pull");
    expect(before.hits[0].documentName).toBe("tides.txt");
    await server.services.knowledgeBases.update(owner, ranked.id, { pagerank: 10 });
    const after = await both("tides moon gravitational pull");
    expect(after.hits[0].documentName).toBe("almanac.txt");
    const [first] = after.hits;
    expect(first.similarity).toBeCloseTo(0.7 * first.termSimilarity + 0.3 * first.vectorSimilarity + 10, 6);
    expect(after.hits.find((h) => h.documentName === "tides.txt")?.similarity).toBeLessThan(1);
  });

  test("the vector index of a dimension is built once one knowledge base outgrows exact search, not the installation's chunks together, and not on the embedded database", async () => {
    const { db } = server.services.platform;
    const other = await parsedKnowledgeBase("Another small one", { "kites.txt": "Kites fly when the wind lifts them.", "rivers.txt": "Rivers carry sediment to the sea." });
    const [{ dimension, chunks }]: { dimension: number; chunks: number }[] = await db.query(
      `SELECT max(c.dimension) AS dimension, (SELECT chunks FROM chunk_term_stats WHERE knowledge_base_id = $1) AS chunks FROM chunk c WHERE c.knowledge_base_id = $1`,
      [kb.id],
    );
    const index = `chunk_embedding_${dimension}_hnsw`;
    const indexed = async () => (await db.query(`SELECT 1 FROM pg_indexes WHERE indexname = $1`, [index])).length > 0;
    // Exact search serves `chunks` per knowledge base here; the two knowledge bases together have more.
    expect(await indexVectorsWhenLarge(db, dimension, kb.id, chunks)).toBe(false);
    expect(await indexVectorsWhenLarge(db, dimension, other.id, chunks)).toBe(false);
    expect(await indexed()).toBe(false);
    // Ingestion leaves it out on the embedded database (this one), where every other statement would wait for it.
    await ensureVectorIndex(db, dimension, kb.id, chunks - 1);
    expect(await indexed()).toBe(false);
    expect(await indexVectorsWhenLarge(db, dimension, kb.id, chunks - 1)).toBe(true);
    expect(await indexed()).toBe(true);
    // A build stopped halfway leaves its index invalid: the next check drops it and builds it again.
    const valid = async () => (await db.query(`SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass($1)`, [index]))[0]?.valid;
    await db.query(`UPDATE pg_index SET indisvalid = false WHERE indexrelid = to_regclass($1)`, [index]);
    expect(await valid()).toBe(false);
    expect(await indexVectorsWhenLarge(db, dimension, kb.id, chunks - 1)).toBe(true);
    expect(await valid()).toBe(true);
    await db.query(`DROP INDEX ${index}`);
  });

  test("a question's vector sent in binary gives the similarities its text gives, on every nearest-neighbour path", async () => {
    const { db } = server.services.platform;
    const model = await server.services.models.client(kb.tenantId, "embedding", kb.embeddingModel);
    const [vector] = (await model.embed(["How do wind turbines make electricity?"], { purpose: "query" })).vectors;
    const byText: { id: string; similarity: number }[] = await db.query(
      `SELECT id, 1 - (embedding <=> $2::vector) AS similarity FROM chunk WHERE knowledge_base_id = $1`,
      [kb.id, `[${vector.join(",")}]`],
    );
    const byBinary = await vectorSimilarities(db, vector, byText.map((row) => row.id));
    for (const row of byText) expect(byBinary.get(row.id)?.similarity).toBeCloseTo(Number(row.similarity), 5);
    const exact = await nearestChunks(db, vector, { knowledgeBaseIds: [kb.id] }, 3, 1);
    // Past the exact-search limit the query takes the index's expression (here without an index: the same order, scanned).
    const indexed = await nearestChunks(db, vector, { knowledgeBaseIds: [kb.id] }, 3, EXACT_SCAN_LIMIT + 1);
    expect(exact[0].documentName).toBe("turbines.txt");
    expect(indexed.map((hit) => hit.chunkId)).toEqual(exact.map((hit) => hit.chunkId));
  });

  test("packed postings give the chunks and scores the postings give, with the same exclusions, before and after chunks change", async () => {
    const { db } = server.services.platform;
    const other = await parsedKnowledgeBase("Packed too", {
      "kites.txt": "Kites fly when the wind lifts them. Wind turbines and kites both need steady wind.",
      "ferries.txt": "Ferries cross the bay twice a day, whatever the tides.",
    });
    const questions = ["How do wind turbines make electricity?", "tides of the moon", "sourdough yeast bread", "知识库检索", "IL-6 sepsis", "nothing matches zyzzyva"];
    const compare = async (scope: KeywordScope) => {
      for (const question of questions) {
        const terms = await weightedQueryTerms(question);
        const packed = await packedKeywordSearch(db, terms, scope, 3);
        expect(packed).not.toBeNull();
        const expected = await postingsKeywordSearch(db, terms, scope, 3);
        expect(packed!.map((hit) => hit.chunkId)).toEqual(expected.map((hit) => hit.chunkId));
        packed!.forEach((hit, i) => {
          expect(hit).toMatchObject({ documentId: expected[i].documentId, knowledgeBaseId: expected[i].knowledgeBaseId });
          expect(hit.bm25).toBeCloseTo(expected[i].bm25, 9);
          expect(hit.similarity).toBeCloseTo(expected[i].similarity, 9);
        });
      }
    };
    // Only this test packs meanwhile.
    await server.services.postingsPacker.stop();
    const terms = await weightedQueryTerms("wind turbines");
    const both = { knowledgeBaseIds: [kb.id, other.id] };
    expect(await packedKeywordSearch(db, terms, both, 3)).toBeNull();
    expect(await server.services.postingsPacker.packAll()).toBeGreaterThanOrEqual(2);
    await compare({ knowledgeBaseIds: [kb.id] });
    await compare(both);

    // What the rule leaves out is looked up at each search, not packed: enabling and disabling change no postings.
    const bread = (await retrieve("sourdough yeast")).hits[0].chunk;
    const kites = (await postingsKeywordSearch(db, terms, { knowledgeBaseIds: [other.id] }, 1))[0];
    await server.services.chunks.setAvailable(owner, [kites.chunkId], false);
    await server.services.documents.setEnabled(owner, [bread.documentId], false);
    try {
      await compare(both);
      expect((await packedKeywordSearch(db, terms, both, 10))!.map((hit) => hit.chunkId)).not.toContain(kites.chunkId);
    } finally {
      await server.services.chunks.setAvailable(owner, [kites.chunkId], true);
      await server.services.documents.setEnabled(owner, [bread.documentId], true);
    }
    await compare({ ...both, documentIds: [bread.documentId, kites.documentId] });

    // Chunks added, edited or deleted since a pack are read from the postings, the rest from the pack.
    const changes = async (knowledgeBaseId: string) =>
      (await db.query(`SELECT count(DISTINCT chunk_id)::int AS count FROM chunk_term_change c JOIN chunk_term_pack p USING (knowledge_base_id) WHERE knowledge_base_id = $1 AND c.version > p.version`, [knowledgeBaseId]))[0].count;
    const windmills = await weightedQueryTerms("windmills grain");
    const added = await server.services.chunks.add(owner, kites.documentId, { content: "Windmills grind grain with wind." });
    try {
      expect(await changes(other.id)).toBe(1);
      await compare(both);
      expect((await packedKeywordSearch(db, windmills, both, 1))![0].chunkId).toBe(added.id);
      await server.services.chunks.update(owner, kites.chunkId, { content: "Kites and windmills both turn in the wind." });
      expect(await changes(other.id)).toBe(2);
      await compare(both);
      expect((await packedKeywordSearch(db, windmills, both, 2))!.map((hit) => hit.chunkId).sort()).toEqual([added.id, kites.chunkId].sort());
      expect((await packedKeywordSearch(db, terms, { ...both, documentIds: [bread.documentId] }, 3))!.map((hit) => hit.chunkId)).not.toContain(kites.chunkId);
    } finally {
      await server.services.chunks.delete(owner, [added.id]);
    }
    expect(await changes(other.id)).toBe(2);
    await compare(both);
    expect((await packedKeywordSearch(db, await weightedQueryTerms("grind"), both, 3))!.map((hit) => hit.chunkId)).not.toContain(added.id);
    expect(await changes(kb.id)).toBe(0);
    // Past so many changed chunks, every posting is read in SQL.
    const many = [];
    for (let i = 0; i <= CHANGED_CHUNKS_READ.least; i++) many.push((await server.services.chunks.add(owner, kites.documentId, { content: `Kite ${i} flies in the wind.` })).id);
    expect(await packedKeywordSearch(db, terms, both, 3)).toBeNull();
    await server.services.chunks.delete(owner, many);
    // Packing again covers the changes, and their records go.
    expect(await server.services.postingsPacker.packAll()).toBe(1);
    expect((await db.query(`SELECT count(*)::int AS count FROM chunk_term_change WHERE knowledge_base_id = $1`, [other.id]))[0].count).toBe(0);
    await compare(both);

    // In the background, a knowledge base is packed once its postings stayed the same for a pass.
    await server.services.chunks.delete(owner, [kites.chunkId]);
    const current = async () =>
      (await db.query(`SELECT s.version = p.version AS current FROM chunk_term_stats s JOIN chunk_term_pack p USING (knowledge_base_id) WHERE knowledge_base_id = $1`, [other.id]))[0].current;
    expect(await current()).toBe(false);
    const packer = new PostingsPacker(db, 50);
    packer.start();
    try {
      while (!(await current())) await new Promise((resolve) => setTimeout(resolve, 50));
      await compare(both);
    } finally {
      await packer.stop();
    }

    // Built slice by slice (here a few postings a slice: one per chunk) while a chunk changes between slices: the same results, and
    // only the new pack's rows are left.
    const raced = await server.services.chunks.add(owner, kites.documentId, { content: "Kites race the ferries across the windy bay." });
    try {
      const [packed] = await Promise.all([packPostings(db, other.id, 3), server.services.chunks.update(owner, raced.id, { content: "Kites and ferries race in the wind." })]);
      expect(packed).toBe(true);
      await compare(both);
      expect(await db.query(`SELECT DISTINCT t.version = p.version AS used FROM chunk_term_packed t JOIN chunk_term_pack p USING (knowledge_base_id) WHERE knowledge_base_id = $1`, [other.id])).toEqual([{ used: true }]);
      // A build another process is working on is left to it, until it has not worked on it for a minute (its process died).
      await server.services.chunks.delete(owner, [raced.id]);
      await db.query(`INSERT INTO chunk_term_pack_build (knowledge_base_id, version, chunk_ids, document_ids, lengths) VALUES ($1, 1, '{}', '{}', '')`, [other.id]);
      expect(await packPostings(db, other.id, 3)).toBe(false);
      await db.query(`UPDATE chunk_term_pack_build SET touched_at = now() - interval '2 minutes' WHERE knowledge_base_id = $1`, [other.id]);
      expect(await packPostings(db, other.id, 3)).toBe(true);
      expect(await current()).toBe(true);
      await compare(both);
    } finally {
      server.services.postingsPacker.start();
    }
  });
});
