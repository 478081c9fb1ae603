import { buildRaptorSummaries } from "../../ingestion/enrichment/raptor";
import { chunkId } from "../../ingestion/pipeline";
import { countTokens } from "../../models/tokens";
import { ensureVectorIndex, insertChunks, type StoredChunk } from "../chunk-store";
import { logMessage } from "../../ingestion/parse-log";
import { parsedDocuments, type KbTaskOutput, type KbTaskRun } from "./kb-task-run";

/** RAPTOR summarises clusters of chunks; below this a summary would only repeat the document. */
const RAPTOR_MIN_CHUNKS = 3;

interface SourceChunk {
  content: string;
  embedding: string;
  ordinal: number;
}

/**
 * RAPTOR over a knowledge base: for each parsed document, its chunks are clustered and summarised
 * (recursively, as RAGFlow's RAPTOR does) into summary chunks stored with the document and marked
 * `kind = "raptor"`. The tree is built per document so that a summary belongs to the document it
 * summarises: deleting or re-parsing that document removes its summaries with the rest.
 */
export async function runRaptor(run: KbTaskRun): Promise<KbTaskOutput> {
  const { db, task, config } = run;
  const documents = await parsedDocuments(db, task);
  const skipped = task.documentIds.length - documents.length;
  if (skipped > 0) await run.report(0.01, logMessage("kbTaskLog.documentsSkipped", { count: skipped }));
  const rows: StoredChunk[] = [];
  const producers = new Set<string>();
  for (const [index, document] of documents.entries()) {
    const share = (fraction: number) => 0.02 + (0.93 * (index + fraction)) / documents.length;
    const chunks: SourceChunk[] = await db.query(
      `SELECT content, embedding::text AS embedding, ordinal FROM chunk WHERE document_id = $1 AND kind <> 'raptor' AND embedding IS NOT NULL ORDER BY ordinal`,
      [document.id],
    );
    if (chunks.length < RAPTOR_MIN_CHUNKS) {
      await run.report(share(1), logMessage("kbTaskLog.tooFewChunks", { document: document.name, count: chunks.length }));
      continue;
    }
    const { summaries, producedBy, notes } = await buildRaptorSummaries(
      chunks.map((c) => ({ text: c.content, vector: JSON.parse(c.embedding) as number[] })),
      config.raptor ?? {},
      { chat: run.chat, embed: run.embed, language: run.knowledgeBase.language, signal: run.signal, progress: (fraction, message) => void run.report(share(fraction), message).catch(() => undefined) },
    );
    producers.add(producedBy);
    for (const note of notes) await run.report(share(1), note);
    const firstOrdinal = Math.max(...chunks.map((c) => c.ordinal)) + 1;
    for (const [i, summary] of summaries.entries()) {
      const ordinal = firstOrdinal + i;
      rows.push({
        id: chunkId(document.id, ordinal, summary.text),
        knowledgeBaseId: task.knowledgeBaseId,
        documentId: document.id,
        tenantId: task.tenantId,
        ordinal,
        kind: "raptor",
        content: summary.text,
        title: "",
        keywords: [],
        questions: [],
        fields: null,
        positions: [],
        imageKey: null,
        available: true,
        tokenCount: countTokens(summary.text),
        producedBy: { summary: producedBy },
        vector: summary.vector,
      });
    }
    await run.report(share(1), logMessage("kbTaskLog.summaryChunks", { document: document.name, count: summaries.length }));
  }
  if (rows.length > 0) await ensureVectorIndex(db, rows[0].vector.length, task.knowledgeBaseId);
  return {
    counts: { chunkCount: rows.length },
    summary: () =>
      producers.size > 0
        ? logMessage("kbTaskLog.raptorMadeBy", { count: rows.length, by: [...producers].join(", ") })
        : logMessage("kbTaskLog.raptorMade", { count: rows.length }),
    async replace(manager) {
      // The previous run's summaries go, then this run's come, for documents still there (the counters follow the rows).
      await manager.query(`DELETE FROM chunk WHERE knowledge_base_id = $1 AND kind = 'raptor'`, [task.knowledgeBaseId]);
      const present: { id: string }[] = await manager.query(`SELECT id FROM document WHERE id = ANY($1)`, [[...new Set(rows.map((r) => r.documentId))]]);
      const kept = new Set(present.map((d) => d.id));
      await insertChunks(manager, rows.filter((r) => kept.has(r.documentId)));
    },
  };
}
