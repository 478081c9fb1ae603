/**
 * Where ingestion's time goes, per stage, summed over every document this process ingested: the ingestion
 * benchmark (tests/bench/ingest.mjs) prints it, so that a slower or faster run says which stage moved.
 * Stages overlap when documents are parsed side by side, so the sums may exceed the wall-clock time.
 * Recording is two clock reads and an addition per stage: cheap enough to stay on in production.
 */

export type IngestionStage = "start" | "read" | "parse" | "chunk" | "enrich" | "embed" | "write";

const totals = new Map<IngestionStage, number>();
let documents = 0;

/** Runs `step` and adds its time to `stage`. */
export async function timed<T>(stage: IngestionStage, step: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await step();
  } finally {
    totals.set(stage, (totals.get(stage) ?? 0) + performance.now() - started);
  }
}

export function countIngestedDocument(): void {
  documents += 1;
}

/** Milliseconds per stage since the last reset, and the documents ingested meanwhile. */
export function stageTimings(): { documents: number; milliseconds: Partial<Record<IngestionStage, number>> } {
  return { documents, milliseconds: Object.fromEntries(totals) };
}

export function resetStageTimings(): void {
  totals.clear();
  documents = 0;
}
