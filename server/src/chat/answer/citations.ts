import { tokenize } from "../../models/builtin/text-analysis";
import type { RetrievalHit, RetrievalResult } from "../../retrieval/retrieval.service";
import type { MessageReference, ReferenceChunk } from "../message.entity";

/**
 * Citations `[ID:n]`, n indexing `reference.chunks` (0-based, as RAGFlow). A model may write them in
 * other shapes ("(ID: 3)", "【ID:3】", "[ID: 3]"): they are repaired; ids that name no chunk are dropped.
 * When the model cites nothing although it was asked to, each sentence gets the chunk it shares most
 * words with (RAGFlow inserts citations after the fact too, by similarity).
 */

export const CITATION = /\[ID:(\d+)\]/g;

export function referenceChunk(hit: RetrievalHit): ReferenceChunk {
  const { chunk } = hit;
  return {
    id: chunk.id,
    content: chunk.content,
    document_id: chunk.documentId,
    document_name: hit.documentName,
    dataset_id: chunk.knowledgeBaseId,
    image_id: chunk.imageKey ?? "",
    positions: (chunk.positions ?? []).map((p) => [p.page, p.x0, p.x1, p.top, p.bottom].map((n) => Math.round(n))),
    url: null,
    similarity: hit.similarity,
    vector_similarity: hit.vectorSimilarity,
    term_similarity: hit.termSimilarity,
    doc_type: chunk.kind === "image" ? "image" : "",
    page: chunk.page ?? null,
  };
}

/** The answer's reference: every chunk the model was given, and the documents the answer cites (all of them when it cites none). */
export function referenceOf(hits: RetrievalHit[], retrieval: Pick<RetrievalResult, "total">, answer = ""): MessageReference {
  const chunks = hits.map(referenceChunk);
  const cited = new Set([...answer.matchAll(CITATION)].map((m) => Number(m[1])).filter((i) => i < chunks.length));
  const counts = new Map<string, { doc_name: string; doc_id: string; count: number }>();
  chunks.forEach((chunk, i) => {
    if (cited.size > 0 && !cited.has(i)) return;
    const entry = counts.get(chunk.document_id) ?? { doc_name: chunk.document_name, doc_id: chunk.document_id, count: 0 };
    entry.count += 1;
    counts.set(chunk.document_id, entry);
  });
  return { total: Math.max(retrieval.total, chunks.length), chunks, doc_aggs: [...counts.values()].sort((a, b) => b.count - a.count) };
}

const BAD_CITATIONS: RegExp[] = [
  /\(\s*ID\s*[:：]\s*(\d+)\s*\)/gi, // (ID: 12)
  /\[\s*ID\s*[:：]\s*(\d+)\s*\]/gi, // [ID: 12]
  /【\s*ID\s*[:：]\s*(\d+)\s*】/gi, // 【ID: 12】
  /\bref\s*(\d+)\b/gi, // ref12
];

/** Repairs citation shapes and drops ids out of range. */
export function repairCitations(answer: string, chunkCount: number): string {
  let repaired = answer;
  for (const pattern of BAD_CITATIONS) {
    repaired = repaired.replace(pattern, (whole, n: string) => (Number(n) < chunkCount ? `[ID:${Number(n)}]` : whole.startsWith("ref") ? whole : ""));
  }
  return repaired;
}

const SENTENCE = /[^.!?。！？\n]+[.!?。！？]*[\s]*/g;
/** Share of a sentence's terms a chunk must hold to be cited for it. */
const MIN_OVERLAP = 0.5;

/** Adds `[ID:n]` after each sentence that a chunk supports, for answers that cite nothing. */
export function insertCitations(answer: string, hits: RetrievalHit[]): string {
  if (hits.length === 0 || /\[ID:\d+\]/.test(answer)) return answer;
  const chunkTerms = hits.map((h) => new Set(tokenize(h.chunk.content).map((t) => t.term)));
  return answer.replace(SENTENCE, (sentence) => {
    const terms = [...new Set(tokenize(sentence).map((t) => t.term))];
    if (terms.length < 2) return sentence;
    let best = -1;
    let bestShare = 0;
    chunkTerms.forEach((set, i) => {
      const share = terms.filter((t) => set.has(t)).length / terms.length;
      if (share > bestShare) [best, bestShare] = [i, share];
    });
    if (best < 0 || bestShare < MIN_OVERLAP) return sentence;
    const trailing = /\s*$/.exec(sentence)?.[0] ?? "";
    return `${sentence.slice(0, sentence.length - trailing.length)} [ID:${best}]${trailing}`;
  });
}

/** The answer as stored: citations repaired, and inserted when asked for and missing; without quotes, none at all. */
export function finalAnswer(answer: string, hits: RetrievalHit[], quote: boolean): string {
  if (!quote) return answer.replace(/\s*\[ID:\d+\]/g, "");
  return insertCitations(repairCitations(answer, hits.length), hits);
}
