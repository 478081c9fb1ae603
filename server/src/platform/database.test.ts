import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnTs } from "../testing/processes";
import { openDatabase, type Database } from "./database";
import { migrations } from "../migrations";
import { platformParts } from "../platform-parts";

/** The pid of a process that has exited, as a crashed server's pid left in a lock file. */
function deadPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", () => resolve(child.pid!));
  });
}

/**
 * One DATA_DIR for the whole file, because creating a PGlite cluster (initdb in WebAssembly) takes seconds;
 * the tests run in order and the later ones close and reopen it.
 */
describe("the embedded database (PGlite in DATA_DIR)", () => {
  let dataDir: string;
  let database: Database | undefined;
  const query = <T = Record<string, unknown>>(sql: string, parameters?: unknown[]): Promise<T[]> =>
    database!.dataSource.query(sql, parameters);

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-db-"));
    database = await openDatabase({ dataDir, databaseUrl: undefined }, platformParts);
  });
  afterAll(async () => {
    await database?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("opens in a fresh DATA_DIR and the migrations create the tables", async () => {
    expect(database!.description).toBe(`embedded PGlite (${path.join(dataDir, "pg")})`);
    const tables = await query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(["api_token", "app_user", "auth_session", "migrations", "throttle_counter", "tenant", "tenant_member"]),
    );
    const ran = await query<{ name: string }>(`SELECT name FROM migrations`);
    expect(ran.map((m) => m.name)).toEqual(migrations.map((m) => m.name));
  });

  test("connections take whole turns: an open transaction holds the session, and one whose connection dies is rolled back", async () => {
    const dataSource = database!.dataSource;
    // Statements of several connections at once, each its own Parse, Bind and Execute: none lands in another's.
    const echoed = await Promise.all(Array.from({ length: 200 }, (_, i) => query<{ i: number }>(`SELECT $1::int AS i`, [i])));
    expect(echoed.map(([row]) => row.i)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    await query(`CREATE TABLE turn_probe (id int PRIMARY KEY)`);
    const first = dataSource.createQueryRunner();
    const second = dataSource.createQueryRunner();
    try {
      await first.startTransaction();
      await first.query(`INSERT INTO turn_probe VALUES (1)`);
      // Statements of other connections wait for the transaction: they see it committed, never half done.
      const outside = query<{ n: number }>(`SELECT count(*)::int AS n FROM turn_probe`);
      const other = second.startTransaction().then(async () => {
        const [{ n }] = await second.query(`SELECT count(*)::int AS n FROM turn_probe`);
        await second.query(`INSERT INTO turn_probe VALUES (2)`);
        await second.commitTransaction();
        return n as number;
      });
      await first.query(`INSERT INTO turn_probe VALUES (3)`);
      await first.commitTransaction();
      expect(await other).toBe(2);
      expect((await outside)[0].n).toBe(2);

      // A failed statement leaves its own transaction aborted, and only that one.
      await first.startTransaction();
      await expect(first.query(`INSERT INTO turn_probe VALUES (1)`)).rejects.toThrow(/duplicate key/);
      await expect(first.query(`SELECT 1`)).rejects.toThrow(/current transaction is aborted/);
      await first.rollbackTransaction();
      await expect(query(`SELEC 1`)).rejects.toThrow(/syntax error/);

      // A connection that goes away inside its transaction: its statements are undone and the others go on.
      await second.startTransaction();
      await second.query(`INSERT INTO turn_probe VALUES (4)`);
      const client = (second as unknown as { databaseConnection: { end(): Promise<void> } }).databaseConnection;
      await client.end();
      expect(await query(`SELECT id FROM turn_probe ORDER BY id`)).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    } finally {
      await first.release();
      await second.release().catch(() => undefined);
      await query(`DROP TABLE turn_probe`);
    }
  });

  test("the vector extension is available: cosine distance and nearest-neighbour order", async () => {
    const [{ distance }] = await query<{ distance: number }>(`SELECT '[1,2,3]'::vector <=> '[1,2,4]'::vector AS distance`);
    // 1 − (1·1 + 2·2 + 3·4) / (|[1,2,3]| · |[1,2,4]|) = 1 − 17 / √294
    expect(distance).toBeCloseTo(1 - 17 / Math.sqrt(294), 6);

    await query(`CREATE TABLE vector_probe (name text, embedding vector(3))`);
    await query(`INSERT INTO vector_probe VALUES ('east', '[1,0,0]'), ('north', '[0,1,0]'), ('north-east', '[1,1,0]')`);
    const nearest = await query<{ name: string }>(`SELECT name FROM vector_probe ORDER BY embedding <=> $1 LIMIT 2`, ["[0.9,1,0]"]);
    expect(nearest.map((r) => r.name)).toEqual(["north-east", "north"]);
    await query(`DROP TABLE vector_probe`);
  });

  test("housekeeping vacuums and analyses what autovacuum would: a table past its thresholds, not one below them", async () => {
    await query(`CREATE TABLE busy_probe (id int PRIMARY KEY)`);
    await query(`CREATE TABLE quiet_probe (id int PRIMARY KEY)`);
    await query(`INSERT INTO busy_probe SELECT generate_series(1, 3000)`);
    await query(`DELETE FROM busy_probe WHERE id <= 2000`);
    await query(`INSERT INTO quiet_probe VALUES (1)`);
    // Counters reach the statistics at most once a second; a test does not wait for that.
    await query(`SELECT pg_stat_force_next_flush()`);
    await database!.housekeeping!.run();
    await query(`SELECT pg_stat_force_next_flush()`);
    const stats = await query<{ relname: string; vacuumed: boolean; analysed: boolean; dead: string }>(
      `SELECT relname, last_vacuum IS NOT NULL AS vacuumed, last_analyze IS NOT NULL AS analysed, n_dead_tup AS dead
       FROM pg_stat_user_tables WHERE relname IN ('busy_probe', 'quiet_probe') ORDER BY relname`,
    );
    expect(stats).toEqual([
      { relname: "busy_probe", vacuumed: true, analysed: true, dead: "0" },
      { relname: "quiet_probe", vacuumed: false, analysed: false, dead: "0" },
    ]);
    await query(`DROP TABLE busy_probe; DROP TABLE quiet_probe`);
  });

  test("a second process cannot open the data directory while it is open", async () => {
    const second = spawnTs("src/testing/open-database.child.ts", { DATA_DIR: dataDir });
    const { code } = await second.exited;

    expect(second.output()).toContain(
      `refused: The data directory is in use by process ${process.pid}. Stop it first, or set DATA_DIR to another directory.`,
    );
    expect(code).toBe(2);
    // The refusal left the holder's database working.
    expect(await query(`SELECT 1 AS alive`)).toEqual([{ alive: 1 }]);
  });

  test("data written before close is there after reopening, and migrations do not run again", async () => {
    await query(`INSERT INTO tenant (id, name) VALUES ($1, $2)`, ["t".repeat(32), "Acme 有限公司"]);
    await database!.close();
    database = undefined;
    expect(fs.existsSync(path.join(dataDir, "pg.lock"))).toBe(false);

    database = await openDatabase({ dataDir, databaseUrl: undefined }, platformParts);

    expect(await query(`SELECT id, name FROM tenant`)).toEqual([{ id: "t".repeat(32), name: "Acme 有限公司" }]);
    expect(await query(`SELECT count(*)::int AS runs FROM migrations`)).toEqual([{ runs: migrations.length }]);
  });

  test("a lock left behind by a process that died does not keep the directory closed", async () => {
    await database!.close();
    database = undefined;
    fs.writeFileSync(path.join(dataDir, "pg.lock"), String(await deadPid()));

    database = await openDatabase({ dataDir, databaseUrl: undefined }, platformParts);

    expect(fs.readFileSync(path.join(dataDir, "pg.lock"), "utf8")).toBe(String(process.pid));
    expect(await query(`SELECT count(*)::int AS tenants FROM tenant`)).toEqual([{ tenants: 1 }]);
  });
});
