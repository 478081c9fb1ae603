import type { DataSource } from "typeorm";
import { unpackChunks, unpackTerm, type PackedChunks, type PackedTerm } from "../knowledge/packed-postings";
import type { QueryTerm } from "./query-terms";
import { retrievablePostings, unretrievable } from "./retrievable";

/**
 * BM25 inside PostgreSQL over the postings of the query's terms (chunk_term, one index range per term;
 * kept by triggers from the chunks' term maps, knowledge/search-terms.ts). Document frequencies come from
 * the same postings, N and the average length from chunk_term_stats, over the knowledge bases searched:
 * always current, never mixing tenants. Frequencies are already field-weighted (BM25F-like); they are
 * saturated with k1 = 1.2 and length-normalised with b = 0.75, the usual values (Robertson & Zaragoza, 2009).
 *
 * When every knowledge base searched has a pack of its postings (knowledge/packed-postings.ts) and few chunks
 * changed since, the same sums are made in the server from the packs' rows for the question's terms and the changed
 * chunks' current terms, several times faster; the two ways return the same chunks with the same scores.
 */

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

export interface KeywordScope {
  knowledgeBaseIds: string[];
  documentIds?: string[];
}

export interface KeywordHit {
  chunkId: string;
  documentId: string;
  knowledgeBaseId: string;
  /** Σ weight · idf · saturated tf over the matched query terms. */
  bm25: number;
  /**
   * 0..1: 1 − e^(−bm25 / Σ weight·idf of the question's own terms, words and bigrams). The ratio is 1 when every
   * such term occurs once in a text of average length (0.63 then); the exponential saturation keeps the order of
   * all scores (a cut at 1 would tie the best ones) and an absolute scale that thresholds can rely on. In that sum a
   * term found in no chunk weighs as one found in a single chunk: else, in a small knowledge base, the question's
   * unknown words (an abbreviation, a word the texts say otherwise) would weigh several times more than every word
   * that matched, and a passage that answers the question would fall under the default threshold.
   */
  similarity: number;
}

/** The `limit` chunks that score best on the terms, among those retrieval may return. */
export async function keywordSearch(db: DataSource, terms: QueryTerm[], scope: KeywordScope, limit: number): Promise<KeywordHit[]> {
  if (terms.length === 0 || limit <= 0) return [];
  return (await packedKeywordSearch(db, terms, scope, limit)) ?? (await postingsKeywordSearch(db, terms, scope, limit));
}

/** BM25 summed in SQL over chunk_term: always current. */
export async function postingsKeywordSearch(db: DataSource, terms: QueryTerm[], scope: KeywordScope, limit: number): Promise<KeywordHit[]> {
  const rows: { id: string; document_id: string; knowledge_base_id: string; bm25: number; idf_total: number }[] = await db.query(
    // Collection statistics cover every chunk of the knowledge bases, whatever the filters: idf must come
    // from one collection. Each query term's document frequency is counted first (an index-only count of
    // its postings), then its postings are read by a parameterised index scan each (OFFSET 0 keeps the
    // planner from turning that into a scan of the whole table); Σ weight·idf of the question's own terms
    // normalises the score, each term's document frequency taken as at least 1 there (see `similarity`). The
    // postings are summed per chunk before the retrievable rule is checked, once a chunk instead of once a
    // posting; a chunk's document and knowledge base are grouped on, not aggregated (min() of a text compares by
    // collation, row by row). All arithmetic is float8: an integer column next to a decimal literal would make
    // PostgreSQL compute in numeric, which costs more than reading the postings.
    `WITH corpus AS (
       SELECT greatest(sum(chunks), 1)::float8 AS n, greatest(sum(length)::float8 / greatest(sum(chunks), 1), 1) AS avgdl
       FROM chunk_term_stats WHERE knowledge_base_id = ANY($1)
     ),
     q AS (
       SELECT q.term, q.weight, q.original, ln(1 + (corpus.n - df.df + 0.5) / (df.df + 0.5)) AS idf,
         ln(1 + (corpus.n - greatest(df.df, 1) + 0.5) / (greatest(df.df, 1) + 0.5)) AS norm_idf
       FROM unnest($2::text[], $5::float8[], $6::bool[]) AS q(term, weight, original) CROSS JOIN corpus,
         LATERAL (SELECT count(*)::float8 AS df FROM chunk_term t WHERE t.knowledge_base_id = ANY($1) AND t.term = q.term) df
     )
     SELECT p.chunk_id AS id, p.document_id, p.knowledge_base_id, p.bm25, (SELECT sum(weight * norm_idf) FROM q WHERE original) AS idf_total
     FROM (
       SELECT t.chunk_id, t.document_id, t.knowledge_base_id,
         sum(q.weight * q.idf * t.tf * (${BM25_K1}::float8 + 1) / (t.tf + ${BM25_K1}::float8 * (1 - ${BM25_B}::float8 + ${BM25_B}::float8 * t.length / corpus.avgdl))) AS bm25
       FROM q CROSS JOIN corpus,
         LATERAL (SELECT chunk_id, document_id, knowledge_base_id, tf, length FROM chunk_term t WHERE t.knowledge_base_id = ANY($1) AND t.term = q.term OFFSET 0) t
       GROUP BY t.chunk_id, t.document_id, t.knowledge_base_id
     ) p
     WHERE ${retrievablePostings("$1", "$4")}
     ORDER BY p.bm25 DESC, p.chunk_id
     LIMIT $3`,
    [
      scope.knowledgeBaseIds,
      terms.map((t) => t.term),
      limit,
      scope.documentIds?.length ? scope.documentIds : null,
      terms.map((t) => t.weight),
      terms.map((t) => t.source === "question" || t.source === "bigram"),
    ],
  );
  return rows.map((r) => ({
    chunkId: r.id,
    documentId: r.document_id,
    knowledgeBaseId: r.knowledge_base_id,
    bm25: r.bm25,
    similarity: similarityOf(r.bm25, r.idf_total),
  }));
}

function similarityOf(bm25: number, idfTotal: number): number {
  return idfTotal > 0 ? 1 - Math.exp(-bm25 / idfTotal) : 0;
}

const isQuestionTerm = (t: QueryTerm) => t.source === "question" || t.source === "bigram";

/** A pack's chunk list as kept between searches, with its positions by document once a search needed them. */
type KeptChunks = PackedChunks & { byDocument?: Map<string, number[]> };

/**
 * Chunk lists of packs read lately, by knowledge base: a pack's version never changes its content, so a list is
 * read once per version. Bounded by the chunks they hold (~100 bytes each); the least recently used goes first.
 */
const packedChunks = new Map<string, KeptChunks>();
const PACKED_CHUNKS_KEPT = 500_000;

/**
 * How many chunks changed since their knowledge bases' packs a search reads from the chunks themselves: at least
 * `least`, and one per `perChunks` chunks of the knowledge bases searched. Past that it reads every posting in SQL.
 * On the embedded database a changed chunk costs ~0.08 ms (its row and its terms), reading the postings in SQL
 * ~0.0015 ms a chunk of the knowledge base: at the bound the changes cost about a third of what they spare.
 */
export const CHANGED_CHUNKS_READ = { least: 20, perChunks: 200 };

interface ScopePacks {
  n: number;
  avgdl: number;
  packs: { knowledgeBaseId: string; chunks: KeptChunks; terms: Map<string, PackedTerm>; changed: string[] }[];
  /** The current postings of the question's terms in chunks changed since their pack. */
  changedPostings: { knowledgeBaseId: string; term: string; chunkId: string; documentId: string; tf: number; length: number }[];
  leftOut: LeftOut;
}

/** What retrieval may not return in this search (retrievable.ts): the rule's documents and chunks, and documents not named when some are. */
interface LeftOut {
  documents: Set<string>;
  chunks: Set<string>;
  named: Set<string> | null;
}

function isLeftOut(leftOut: LeftOut, chunkId: string, documentId: string): boolean {
  return (leftOut.named !== null && !leftOut.named.has(documentId)) || leftOut.documents.has(documentId) || leftOut.chunks.has(chunkId);
}

interface PackRow {
  kind: "kb" | "term" | "changed" | "posting" | "document" | "chunk";
  kb: string | null;
  term: string | null;
  id: string | null;
  document_id: string | null;
  tf: number | null;
  length: number | null;
  chunks: number | null;
  packed: string | null;
  positions: Buffer | null;
  tfs: Buffer | null;
}

/** The scope's packs for the terms, or null when a knowledge base searched has none, or too many chunks changed since. */
async function readPacks(db: DataSource, terms: QueryTerm[], scope: KeywordScope): Promise<ScopePacks | null> {
  // One statement, so one snapshot: the versions checked, the changes and the postings are all of the same moment.
  const rows: PackRow[] = await db.query(
    `WITH bases AS (
       SELECT s.knowledge_base_id AS kb, s.chunks, s.length, p.version AS packed
       FROM chunk_term_stats s LEFT JOIN chunk_term_pack p USING (knowledge_base_id) WHERE s.knowledge_base_id = ANY($1)
     ),
     readable AS (SELECT greatest(${CHANGED_CHUNKS_READ.least}, sum(chunks) / ${CHANGED_CHUNKS_READ.perChunks})::int AS changes FROM bases),
     changed AS (
       SELECT DISTINCT c.knowledge_base_id AS kb, c.chunk_id FROM chunk_term_change c JOIN bases b ON b.kb = c.knowledge_base_id AND c.version > b.packed
       LIMIT (SELECT changes + 1 FROM readable)
     ),
     -- Whether the packs may be read: past so many changes, every posting is read in SQL instead.
     usable AS (SELECT (SELECT count(*) FROM changed) <= changes AS packs FROM readable)
     SELECT 'kb' AS kind, kb, NULL::text AS term, NULL::text AS id, NULL::text AS document_id, NULL::float8 AS tf, length::float8 AS length,
       chunks::float8 AS chunks, CASE WHEN (SELECT packs FROM usable) THEN packed::text END AS packed, NULL::bytea AS positions, NULL::bytea AS tfs
     FROM bases
     UNION ALL
     SELECT 'term', t.knowledge_base_id, t.term, NULL, NULL, NULL, NULL, NULL, NULL, t.positions, t.tfs
     FROM chunk_term_packed t JOIN bases b ON b.kb = t.knowledge_base_id AND t.version = b.packed WHERE t.knowledge_base_id = ANY($1) AND t.term = ANY($2)
     UNION ALL
     SELECT 'changed', kb, NULL, chunk_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM changed
     UNION ALL
     SELECT 'posting', k.knowledge_base_id, t.key, k.id, k.document_id, t.value::text::real, k.term_count, NULL, NULL, NULL, NULL
     FROM changed c JOIN chunk k ON k.id = c.chunk_id AND k.knowledge_base_id = c.kb, jsonb_each(k.terms) t
     WHERE t.key = ANY($2) AND (SELECT packs FROM usable)
     UNION ALL
     SELECT x.excluded, NULL, NULL, x.id, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM (${unretrievable("$1")}) x`,
    [scope.knowledgeBaseIds, [...new Set(terms.map((t) => t.term))]],
  );
  const bases = rows.filter((r) => r.kind === "kb");
  const changed = rows.filter((r) => r.kind === "changed");
  if (bases.some((r) => r.packed === null)) return null;
  let chunks = 0;
  let length = 0;
  const packs: ScopePacks["packs"] = [];
  for (const base of bases) {
    const list = await chunksOfPack(db, base.kb!, base.packed!);
    if (!list) return null;
    chunks += base.chunks!;
    length += base.length!;
    packs.push({ knowledgeBaseId: base.kb!, chunks: list, terms: new Map(), changed: changed.filter((r) => r.kb === base.kb).map((r) => r.id!) });
  }
  const packOf = new Map(packs.map((p) => [p.knowledgeBaseId, p]));
  for (const row of rows) if (row.kind === "term") packOf.get(row.kb!)!.terms.set(row.term!, unpackTerm(row.positions!, row.tfs!));
  return {
    n: Math.max(chunks, 1),
    avgdl: Math.max(length / Math.max(chunks, 1), 1),
    packs,
    changedPostings: rows
      .filter((r) => r.kind === "posting")
      .map((r) => ({ knowledgeBaseId: r.kb!, term: r.term!, chunkId: r.id!, documentId: r.document_id!, tf: r.tf!, length: r.length! })),
    leftOut: {
      documents: new Set(rows.filter((r) => r.kind === "document").map((r) => r.id!)),
      chunks: new Set(rows.filter((r) => r.kind === "chunk").map((r) => r.id!)),
      named: scope.documentIds?.length ? new Set(scope.documentIds) : null,
    },
  };
}

async function chunksOfPack(db: DataSource, knowledgeBaseId: string, version: string): Promise<KeptChunks | null> {
  const cached = packedChunks.get(knowledgeBaseId);
  packedChunks.delete(knowledgeBaseId);
  if (cached?.version === version) {
    packedChunks.set(knowledgeBaseId, cached);
    return cached;
  }
  const [row]: { version: string; chunk_ids: string[]; document_ids: string[]; lengths: Buffer }[] = await db.query(
    `SELECT version::text AS version, chunk_ids, document_ids, lengths FROM chunk_term_pack WHERE knowledge_base_id = $1 AND version = $2`,
    [knowledgeBaseId, version],
  );
  // Packed again since the postings were read: this search reads them from chunk_term.
  if (!row) return null;
  const list = unpackChunks(row);
  packedChunks.set(knowledgeBaseId, list);
  let kept = 0;
  for (const [id, entry] of [...packedChunks].reverse()) {
    kept += entry.chunkIds.length;
    if (kept > PACKED_CHUNKS_KEPT && id !== knowledgeBaseId) packedChunks.delete(id);
  }
  return list;
}

/**
 * BM25 as the SQL above computes it, over the packs' postings, less those of chunks changed since, plus the current
 * postings of those chunks; null when a knowledge base searched has no pack, or too many changes since it.
 */
export async function packedKeywordSearch(db: DataSource, terms: QueryTerm[], scope: KeywordScope, limit: number): Promise<KeywordHit[] | null> {
  const read = await readPacks(db, terms, scope);
  if (!read) return null;
  const { n, avgdl, packs, changedPostings } = read;
  // Positions whose postings in a pack are no longer current: the chunk changed since, or went.
  const stale = packs.map((pack) => new Set(pack.changed.map((id) => sortedIndexOf(pack.chunks.chunkIds, id)).filter((position) => position >= 0)));
  const documentFrequency = (term: string) => {
    let df = changedPostings.filter((posting) => posting.term === term).length;
    packs.forEach((pack, i) => {
      const positions = pack.terms.get(term)?.positions;
      if (!positions) return;
      df += positions.length;
      if (stale[i].size > 0) for (const position of positions) if (stale[i].has(position)) df--;
    });
    return df;
  };
  const weighted = terms.map((t) => {
    const df = documentFrequency(t.term);
    return { ...t, idf: Math.log(1 + (n - df + 0.5) / (df + 0.5)), normIdf: Math.log(1 + (n - Math.max(df, 1) + 0.5) / (Math.max(df, 1) + 0.5)) };
  });
  const idfTotal = weighted.filter(isQuestionTerm).reduce((sum, t) => sum + t.weight * t.normIdf, 0);
  const saturated = (scale: number, tf: number, length: number) => (scale * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * length) / avgdl));

  const best = new BestHits(limit);
  packs.forEach((pack, i) => {
    const { chunkIds, documentIds, lengths } = pack.chunks;
    const scores = new Float64Array(chunkIds.length);
    for (const t of weighted) {
      const postings = pack.terms.get(t.term);
      if (!postings) continue;
      const { positions, tfs } = postings;
      const scale = t.weight * t.idf;
      for (let j = 0; j < positions.length; j++) scores[positions[j]] += saturated(scale, tfs[j], lengths[positions[j]]);
    }
    for (const c of stale[i]) scores[c] = 0;
    for (const c of leftOutPositions(pack.chunks, read.leftOut)) scores[c] = 0;
    for (let c = 0; c < scores.length; c++) if (scores[c] > 0) best.offer(scores[c], chunkIds[c], documentIds[c], pack.knowledgeBaseId);
  });

  const changedHits = new Map<string, { documentId: string; knowledgeBaseId: string; bm25: number }>();
  for (const t of weighted) {
    for (const posting of changedPostings) {
      if (posting.term !== t.term) continue;
      const hit = changedHits.get(posting.chunkId) ?? { documentId: posting.documentId, knowledgeBaseId: posting.knowledgeBaseId, bm25: 0 };
      hit.bm25 += saturated(t.weight * t.idf, posting.tf, posting.length);
      changedHits.set(posting.chunkId, hit);
    }
  }
  for (const [chunkId, hit] of changedHits) {
    if (isLeftOut(read.leftOut, chunkId, hit.documentId)) continue;
    best.offer(hit.bm25, chunkId, hit.documentId, hit.knowledgeBaseId);
  }
  return best.inOrder().map((hit) => ({ ...hit, similarity: similarityOf(hit.bm25, idfTotal) }));
}

/** The positions in a pack's chunk list of what the search leaves out. */
function leftOutPositions(chunks: KeptChunks, leftOut: LeftOut): number[] {
  const excluded: number[] = [];
  if (leftOut.named || leftOut.documents.size > 0) {
    const byDocument = (chunks.byDocument ??= groupByDocument(chunks.documentIds));
    if (leftOut.named) for (const [documentId, positions] of byDocument) if (!leftOut.named.has(documentId)) excluded.push(...positions);
    for (const documentId of leftOut.documents) excluded.push(...(byDocument.get(documentId) ?? []));
  }
  for (const chunkId of leftOut.chunks) {
    const position = sortedIndexOf(chunks.chunkIds, chunkId);
    if (position >= 0) excluded.push(position);
  }
  return excluded;
}

function groupByDocument(documentIds: string[]): Map<string, number[]> {
  const byDocument = new Map<string, number[]>();
  documentIds.forEach((documentId, position) => {
    const positions = byDocument.get(documentId);
    if (positions) positions.push(position);
    else byDocument.set(documentId, [position]);
  });
  return byDocument;
}

/** Ids are lower-case hex, which the database's collation orders as JavaScript does. */
function sortedIndexOf(sorted: string[], id: string): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (sorted[middle] === id) return middle;
    if (sorted[middle] < id) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

type PackedHit = Omit<KeywordHit, "similarity">;

/** The `limit` best hits offered, by score then chunk id as the SQL orders them: a heap whose root is the worst kept. */
class BestHits {
  private readonly heap: PackedHit[] = [];

  constructor(private readonly limit: number) {}

  offer(bm25: number, chunkId: string, documentId: string, knowledgeBaseId: string): void {
    const heap = this.heap;
    if (heap.length === this.limit) {
      // Most chunks offered are rejected here, without a hit made for them.
      if (worse(bm25, chunkId, heap[0])) return;
      heap[0] = { chunkId, documentId, knowledgeBaseId, bm25 };
      this.siftDown(0);
      return;
    }
    heap.push({ chunkId, documentId, knowledgeBaseId, bm25 });
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(heap[i].bm25, heap[i].chunkId, heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  }

  inOrder(): PackedHit[] {
    return [...this.heap].sort((a, b) => b.bm25 - a.bm25 || (a.chunkId < b.chunkId ? -1 : 1));
  }

  private siftDown(i: number): void {
    const heap = this.heap;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < heap.length && worse(heap[left].bm25, heap[left].chunkId, heap[worst])) worst = left;
      if (right < heap.length && worse(heap[right].bm25, heap[right].chunkId, heap[worst])) worst = right;
      if (worst === i) return;
      [heap[i], heap[worst]] = [heap[worst], heap[i]];
      i = worst;
    }
  }
}

/** Whether a hit scoring `bm25` for `chunkId` ranks after `than`. */
function worse(bm25: number, chunkId: string, than: PackedHit): boolean {
  return bm25 < than.bm25 || (bm25 === than.bm25 && chunkId > than.chunkId);
}
