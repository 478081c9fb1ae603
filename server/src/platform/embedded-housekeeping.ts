import type { DataSource } from "typeorm";

/**
 * PGlite runs no autovacuum daemon. Without one, dead row versions pile up (a document's progress row is
 * rewritten many times a parse), partial indexes keep pointing at them, the planner has no statistics, and
 * index-only scans — BM25 reads its postings that way — fall back to the heap because no page is ever
 * marked all-visible. So the embedded database does what autovacuum would, with autovacuum's default
 * thresholds: every CHECK_INTERVAL_MS it vacuums and analyses the tables past them, one at a time, through
 * the same single connection (queries wait for a pass as they would for any long statement).
 */

const CHECK_INTERVAL_MS = 30_000;

/** autovacuum_vacuum_threshold / _scale_factor, autovacuum_vacuum_insert_threshold / _scale_factor, autovacuum_analyze_threshold / _scale_factor. */
const NEEDS_WORK = `SELECT relname,
    n_dead_tup > 50 + 0.2 * n_live_tup OR n_ins_since_vacuum > 1000 + 0.2 * n_live_tup AS vacuum,
    n_mod_since_analyze > 50 + 0.1 * n_live_tup AS analyze
  FROM pg_stat_user_tables WHERE schemaname = 'public'`;

export interface Housekeeping {
  /** One pass now: what the timer runs. */
  run(): Promise<void>;
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

export function startHousekeeping(db: DataSource): Housekeeping {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  async function pass(): Promise<void> {
    const tables: { relname: string; vacuum: boolean; analyze: boolean }[] = await db.query(NEEDS_WORK);
    for (const table of tables) {
      if (stopped || !db.isInitialized) return;
      const name = `"${table.relname.replace(/"/g, '""')}"`;
      if (table.vacuum) await db.query(`VACUUM (ANALYZE) ${name}`);
      else if (table.analyze) await db.query(`ANALYZE ${name}`);
    }
  }

  function run(): Promise<void> {
    running = running.then(pass).catch((error) => console.error("[database] housekeeping failed:", error));
    return running;
  }

  const timer = setInterval(() => void run(), CHECK_INTERVAL_MS);
  timer.unref();
  return {
    run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
