import { DomainError } from "../../../platform/errors";
import { outboundPolicy } from "../../../platform/outbound";
import { startMariadb, type TestMariadb } from "../../../testing/mariadb";
import { startPostgresServer, type TestPostgresServer } from "../../../testing/postgres-server";
import { runComponent, testPorts } from "../../testing/run-component";
import { exeSql, sqlStatements, testDatabaseConnection } from "./exe-sql";

/** Against real servers from Debian's packages, started here: PostgreSQL and MariaDB (MySQL's protocol). */

let postgres: TestPostgresServer;
let mariadb: TestMariadb;

const READER = { username: "reader", password: "reader-secret" };

beforeAll(async () => {
  [postgres, mariadb] = await Promise.all([startPostgresServer(), startMariadb()]);
  await postgres.admin("CREATE ROLE reader LOGIN PASSWORD 'reader-secret'");
  await postgres.admin("CREATE DATABASE shop OWNER reader");
  await mariadb.admin(`
    CREATE DATABASE shop;
    CREATE USER 'reader'@'%' IDENTIFIED BY 'reader-secret';
    GRANT ALL ON shop.* TO 'reader'@'%';
    USE shop;
    CREATE TABLE shop.items (id INT PRIMARY KEY, name VARCHAR(40));
    INSERT INTO shop.items SELECT seq, CONCAT('item ', seq) FROM seq_1_to_50;
    CREATE FUNCTION shop.sneaky() RETURNS INT MODIFIES SQL DATA BEGIN INSERT INTO shop.items VALUES (1000, 'sneaky'); RETURN 1; END;`);
  // The owner's own tables, in its own database (the superuser's session is on "postgres").
  const { Client } = await import("pg");
  const owner = new Client({ host: postgres.host, port: postgres.port, database: "shop", user: READER.username, password: READER.password });
  await owner.connect();
  await owner.query(`
    CREATE TABLE items (id INT PRIMARY KEY, name TEXT);
    INSERT INTO items SELECT n, 'item ' || n FROM generate_series(1, 50) AS n;
    CREATE FUNCTION sneaky() RETURNS INT LANGUAGE sql AS $$ INSERT INTO items VALUES (1000, 'sneaky') RETURNING 1 $$;`);
  await owner.end();
}, 120_000);

afterAll(async () => {
  await Promise.all([postgres?.stop(), mariadb?.stop()]);
});

const databases = [
  { db_type: "postgresql", server: () => postgres, sleep: "SELECT pg_sleep(5)", timeoutText: /statement timeout/i, readOnlyText: /read-only transaction/i },
  { db_type: "mariadb", server: () => mariadb, sleep: "SELECT SLEEP(5) FROM shop.items", timeoutText: /max_statement_time/i, readOnlyText: /READ ONLY transaction/i },
] as const;

describe.each(databases)("ExeSQL on $db_type", ({ db_type, server, sleep, timeoutText, readOnlyText }) => {
  const params = () => ({ db_type, host: server().host, port: server().port, database: "shop", ...READER });
  const run = (input: string, extra: Record<string, unknown> = {}) => runComponent(exeSql, { input, params: { ...params(), ...extra } });
  const count = async () => {
    const rows = (db_type === "postgresql" ? await postgresCount() : await mariadb.admin("SELECT COUNT(*) AS n FROM shop.items")) as { n: number | string }[];
    return Number(rows[0].n);
  };

  test("runs the SQL of a model's answer and answers Total and a markdown table", async () => {
    const { output } = await run("Here is the query:\nSELECT id, name FROM items WHERE id <= 2 ORDER BY id;\nIt lists two items.");
    expect(output.content).toBe("Total: 2\n| id | name |\n| --- | --- |\n| 1 | item 1 |\n| 2 | item 2 |");
    expect(output.items).toHaveLength(1);
  });

  test("keeps at most top_n rows and counts them all", async () => {
    const { output } = await run("SELECT id FROM items ORDER BY id", { top_n: 5 });
    expect(output.content.split("\n")[0]).toBe("Total: 50");
    expect(output.content.split("\n").slice(3)).toEqual(["| 1 |", "| 2 |", "| 3 |", "| 4 |", "| 5 |"]);
  });

  test("refuses writing statements before sending them, and runs the reading ones", async () => {
    const { output } = await run("```sql\nSELECT COUNT(*) AS n FROM items;\nINSERT INTO items VALUES (500, 'x');\nUPDATE items SET name = 'y';\nDROP TABLE items;\n```");
    expect(output.items!.map((item) => item.content.split("\n")[0])).toEqual([
      "Total: 1",
      "**Error**: Only statements that read (SELECT, WITH, SHOW, EXPLAIN, DESCRIBE) are run.",
      "**Error**: Only statements that read (SELECT, WITH, SHOW, EXPLAIN, DESCRIBE) are run.",
      "**Error**: Only statements that read (SELECT, WITH, SHOW, EXPLAIN, DESCRIBE) are run.",
    ]);
    expect(output.items![3].content).toContain("Error SQL Statement: DROP TABLE items");
    expect(await count()).toBe(50);
  });

  test("a write hidden in a function is stopped by the read-only transaction", async () => {
    const { output } = await run(`SELECT ${db_type === "postgresql" ? "sneaky()" : "shop.sneaky()"} AS done`);
    expect(output.content).toMatch(/^\*\*Error\*\*: /);
    expect(output.content).toMatch(readOnlyText);
    expect(await count()).toBe(50);
  });

  test("a statement that runs too long is stopped by the server's time-out, and the next one still runs", async () => {
    const { output } = await run(`${sleep}; SELECT 7 AS seven;`, { timeout: 1 });
    expect(output.items![0].content).toMatch(/^\*\*Error\*\*: /);
    expect(output.items![0].content).toMatch(timeoutText);
    expect(output.items![1].content).toBe("Total: 1\n| seven |\n| --- |\n| 7 |");
  });

  test("an SQL error is output for the flow to correct, with the statement", async () => {
    const { output } = await run("SELECT nothing FROM missing_table;");
    expect(output.content).toMatch(/^\*\*Error\*\*: .*missing_table.*\nError SQL Statement: SELECT nothing FROM missing_table$/s);
  });

  test("an empty result says so", async () => {
    const { output } = await run("SELECT id FROM items WHERE id > 1000");
    expect(output.content).toBe("Total: 0\nNo record in the database.");
  });

  test("wrong credentials are a translated component error", async () => {
    const failure = run("SELECT 1", { password: "wrong" });
    await expect(failure).rejects.toBeInstanceOf(DomainError);
    await expect(failure).rejects.toMatchObject({ kind: "OUTSIDE_SERVICE", messageKey: "flow.components.ExeSQL.errors.credentials" });
  });

  test("the Test button connects, and says why it cannot", async () => {
    await expect(testDatabaseConnection(params(), testPorts())).resolves.toBeUndefined();
    await expect(testDatabaseConnection({ ...params(), password: "wrong" }, testPorts())).rejects.toMatchObject({ messageKey: "flow.components.ExeSQL.errors.credentials" });
  });
});

async function postgresCount() {
  const { Client } = await import("pg");
  const client = new Client({ host: postgres.host, port: postgres.port, database: "shop", user: READER.username, password: READER.password });
  await client.connect();
  try {
    return (await client.query("SELECT COUNT(*) AS n FROM items")).rows;
  } finally {
    await client.end();
  }
}

describe("ExeSQL on postgresql only", () => {
  test("stops a write hidden in a CTE", async () => {
    const { output } = await runComponent(exeSql, {
      input: "WITH gone AS (DELETE FROM items RETURNING id) SELECT COUNT(*) FROM gone",
      params: { db_type: "postgresql", host: postgres.host, port: postgres.port, database: "shop", ...READER },
    });
    expect(output.content).toMatch(/^\*\*Error\*\*: .*(data-modifying|read-only transaction)/);
    expect(Number(((await postgresCount()) as { n: string }[])[0].n)).toBe(50);
  });

  test("a cancelled run drops the statement it waits for", async () => {
    const controller = new AbortController();
    const running = runComponent(exeSql, {
      input: "SELECT pg_sleep(30)",
      params: { db_type: "postgresql", host: postgres.host, port: postgres.port, database: "shop", ...READER },
      signal: controller.signal,
    });
    const sleeping = async () => ((await postgres.admin("SELECT COUNT(*) AS n FROM pg_stat_activity WHERE usename = 'reader' AND wait_event = 'PgSleep'")) as { n: string }[])[0].n !== "0";
    while (!(await sleeping())) await new Promise((resolve) => setImmediate(resolve));
    controller.abort(new Error("cancelled by the user"));
    await expect(running).rejects.toThrow("cancelled by the user");
  });
});

describe("ExeSQL without a database", () => {
  const params = { db_type: "mysql", host: "127.0.0.1", port: 1, database: "shop", username: "reader", password: "x" };

  test("a flow that loops back to it more than `loop` times is stopped", async () => {
    await expect(runComponent(exeSql, { input: "SELECT 1", params: { ...params, loop: 3 }, loopCount: 4 })).rejects.toMatchObject({
      kind: "BAD_REQUEST",
      messageKey: "flow.components.ExeSQL.errors.loop",
      params: { loop: 3 },
    });
  });

  test("an input without SQL is a translated error", async () => {
    await expect(runComponent(exeSql, { input: "   ", params })).rejects.toMatchObject({ messageKey: "flow.components.ExeSQL.errors.noSql" });
  });

  test("a write alone is refused without connecting", async () => {
    // Port 1 answers nothing: a connection attempt would fail the run.
    const { output } = await runComponent(exeSql, { input: "DELETE FROM items", params });
    expect(output.content).toMatch(/^\*\*Error\*\*: Only statements that read/);
  });

  test("a host the run's outbound policy refuses is never reached", async () => {
    const publicOnly = testPorts({ outboundPolicy: outboundPolicy({ privateNetworks: false, redirects: "same-class" }) });
    await expect(runComponent(exeSql, { input: "SELECT 1", params, ports: publicOnly })).rejects.toMatchObject({ messageKey: "errors.outbound.addressRefused" });
    // Metadata and link-local addresses are refused whatever the policy.
    await expect(runComponent(exeSql, { input: "SELECT 1", params: { ...params, host: "169.254.169.254" } })).rejects.toMatchObject({ messageKey: "errors.outbound.addressRefused" });
    await expect(testDatabaseConnection({ ...params, host: "10.0.0.1" }, publicOnly)).rejects.toMatchObject({ messageKey: "errors.outbound.addressRefused" });
  });

  test("a host that is no host name (a template's placeholder) is a translated error", async () => {
    await expect(runComponent(exeSql, { input: "SELECT 1", params: { ...params, host: "Your IP Port" } })).rejects.toMatchObject({
      kind: "BAD_REQUEST",
      messageKey: "flow.components.ExeSQL.errors.host",
    });
  });

  test("an unreachable server is a translated component error", async () => {
    await expect(runComponent(exeSql, { input: "SELECT 1", params })).rejects.toMatchObject({ kind: "OUTSIDE_SERVICE", messageKey: "flow.components.ExeSQL.errors.unreachable" });
  });

  test("the statements of a model's answer", () => {
    expect(sqlStatements("Sure! SELECT a FROM t WHERE b = 'x;y'; SELECT 2; That is all.")).toEqual(["SELECT a FROM t WHERE b = 'x;y'", "SELECT 2"]);
    expect(sqlStatements("```sql\nWITH x AS (SELECT 1) SELECT * FROM x;\n-- a comment; with a semicolon\nSELECT 3\n```")).toEqual(["WITH x AS (SELECT 1) SELECT * FROM x", "-- a comment; with a semicolon\nSELECT 3"]);
    expect(sqlStatements("with pleasure: SELECT 1")).toEqual(["SELECT 1"]);
  });
});
