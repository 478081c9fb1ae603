import type { DataSource } from "typeorm";
import type { ModelType, TokenUsage } from "./model-types";

/**
 * The log of model calls (model_usage, and the token total of the tenant's model entry), written in
 * batches: ingestion makes hundreds of embedding calls a second, and one INSERT per call would cost a
 * database round trip each. A batch goes out FLUSH_DELAY_MS after its first call, or at `flush()`.
 */

const FLUSH_DELAY_MS = 50;

export interface UsageRecord {
  tenantId: string;
  modelId: string;
  modelType: ModelType;
  usage: TokenUsage | undefined;
  durationMs: number;
  /** The tenant's model entry whose token total grows; null for built-in models. */
  entryId: string | null;
}

export class UsageLog {
  private pending: UsageRecord[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly db: () => DataSource) {}

  record(record: UsageRecord): void {
    this.pending.push(record);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
  }

  /** Writes what is pending; resolves once everything recorded so far is stored. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) {
      this.writing = this.writing.then(() => this.write(batch)).catch((error) => console.error("[models] could not record usage:", error));
    }
    return this.writing;
  }

  private async write(batch: UsageRecord[]): Promise<void> {
    const tokens = batch.map((r) => r.usage ?? { promptTokens: 0, completionTokens: 0, totalTokens: 0 });
    await this.db().query(
      `INSERT INTO model_usage (tenant_id, model_id, model_type, prompt_tokens, completion_tokens, total_tokens, duration_ms)
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::int[], $5::int[], $6::int[], $7::int[])`,
      [
        batch.map((r) => r.tenantId),
        batch.map((r) => r.modelId),
        batch.map((r) => r.modelType),
        tokens.map((t) => t.promptTokens),
        tokens.map((t) => t.completionTokens),
        tokens.map((t) => t.totalTokens),
        batch.map((r) => Math.round(r.durationMs)),
      ],
    );
    const perEntry = new Map<string, number>();
    batch.forEach((r, i) => r.entryId && tokens[i].totalTokens > 0 && perEntry.set(r.entryId, (perEntry.get(r.entryId) ?? 0) + tokens[i].totalTokens));
    for (const [entryId, total] of perEntry) {
      await this.db().query(`UPDATE model_entry SET used_tokens = used_tokens + $2 WHERE id = $1`, [entryId, total]);
    }
  }
}
