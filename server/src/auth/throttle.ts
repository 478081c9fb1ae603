import type { DataSource } from "typeorm";
import { TooManyRequests } from "../platform/errors";

/** How events under one key are slowed: some free, then each further one locks the key twice as long as the one before. */
export interface ThrottleRule {
  freeEvents: number;
  baseLockSeconds: number;
  /** Escalation stops here, so that no counter locks for ever. */
  maxLockSeconds: number;
  /** A counter that has seen no event for this long starts again from zero. */
  forgetAfterSeconds: number;
}

export interface ThrottleKey {
  key: string;
  rule: ThrottleRule;
}

/** Counters older than every rule's memory are deleted at most this often (per process). */
const SWEEP_INTERVAL_MS = 60_000;
/** 2^20 times the base already exceeds any sensible cap; bounding the exponent keeps power() finite. */
const MAX_DOUBLINGS = 20;

/**
 * Counters of events per key (`throttle_counter`), shared by every server process through the database. An event is
 * counted *before* the work it guards (a password check), in the same statement that refuses it while the key is
 * locked, so that parallel attempts cannot all slip through before the first failure is written.
 */
export class Throttle {
  private lastSweep = 0;

  constructor(
    private readonly db: DataSource,
    private readonly sweepAfterSeconds: number,
  ) {}

  /** Counts one event under every key, or throws TOO_MANY_REQUESTS (`messageKey`, with `seconds`) while any is locked. */
  async admit(keys: ThrottleKey[], messageKey: string): Promise<void> {
    const locked = await this.secondsLocked(keys.map((k) => k.key));
    if (locked > 0) throw TooManyRequests(messageKey, { seconds: locked });
    for (const { key, rule } of keys) {
      if (!(await this.count(key, rule))) throw TooManyRequests(messageKey, { seconds: Math.max(1, await this.secondsLocked([key])) });
    }
    await this.sweep();
  }

  /** Takes back one event under each key (it turned out legitimate), with the lock it may have set. */
  async uncount(keys: string[]): Promise<void> {
    await this.db.query(`UPDATE throttle_counter SET events = greatest(events - 1, 0), locked_until = NULL WHERE key = ANY($1)`, [keys]);
  }

  async clear(keys: string[]): Promise<void> {
    await this.db.query(`DELETE FROM throttle_counter WHERE key = ANY($1)`, [keys]);
  }

  private async secondsLocked(keys: string[]): Promise<number> {
    const [row] = (await this.db.query(`SELECT max(locked_until) AS until FROM throttle_counter WHERE key = ANY($1)`, [keys])) as { until: Date | string | null }[];
    const until = row?.until ? new Date(row.until).getTime() : 0;
    return Math.max(0, Math.ceil((until - Date.now()) / 1000));
  }

  /** One event under `key`; false when the key was locked (then nothing is counted). */
  private async count(key: string, rule: ThrottleRule): Promise<boolean> {
    const now = new Date();
    const forgetBefore = new Date(now.getTime() - rule.forgetAfterSeconds * 1000);
    const events = `(CASE WHEN c.last_event_at < $3 THEN 1 ELSE c.events + 1 END)`;
    const lockUntil = (n: string) =>
      `(CASE WHEN ${n} >= $4 THEN $2::timestamptz + least($6::float8, $5::float8 * power(2, least(${n} - $4, ${MAX_DOUBLINGS}))) * interval '1 second' END)`;
    const rows = (await this.db.query(
      `INSERT INTO throttle_counter AS c (key, events, last_event_at, locked_until) VALUES ($1, 1, $2, ${lockUntil("1")})
       ON CONFLICT (key) DO UPDATE SET events = ${events}, last_event_at = $2, locked_until = ${lockUntil(events)}
       WHERE c.locked_until IS NULL OR c.locked_until <= $2
       RETURNING events`,
      [key, now, forgetBefore, rule.freeEvents, rule.baseLockSeconds, rule.maxLockSeconds],
    )) as unknown[];
    return rows.length > 0;
  }

  private async sweep(): Promise<void> {
    if (Date.now() - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = Date.now();
    const cutoff = new Date(Date.now() - this.sweepAfterSeconds * 1000);
    await this.db.query(`DELETE FROM throttle_counter WHERE last_event_at < $1 AND (locked_until IS NULL OR locked_until < $2)`, [cutoff, new Date()]);
  }
}
