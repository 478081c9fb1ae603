import net from "node:net";
import mysql from "mysql2";
import pg from "pg";
import { DomainError } from "../../../platform/errors";
import { localizedMessage } from "../../../platform/messages";
import { guardedConnection, OutboundRefused, outboundPolicy, type OutboundPolicy } from "../../../platform/outbound";
import { validate, withDefaults, type ParamValues } from "../../../platform/param-spec";
import type { ComponentContext, ComponentDefinition, OutputItem } from "../../component";
import type { FlowPorts } from "../../ports";
import { DESCRIPTION, INPUT_VARIABLES, topN } from "../../params";
import { inputText, markdownTable } from "../outside-service";

/**
 * ExeSQL: runs the SQL its input holds (a model's answer, as in RAGFlow's text-to-SQL flows) on a MySQL,
 * MariaDB or PostgreSQL database and answers each statement's rows as `Total: n` and a markdown table.
 *
 * RAGFlow runs whatever it is given. Cairn only reads: a statement that does not read (INSERT, DROP, SET…)
 * is refused before it is sent, and the rest run inside a READ ONLY transaction that is rolled back, so that
 * a write hidden in a CTE or a function is stopped by the database itself. Each statement has a time-out,
 * at most `top_n` rows are kept (the rest are counted, not held), and the host must be an address the run's
 * outbound policy allows: the address is resolved and checked once, and the driver connects to it.
 *
 * An SQL error is output, not thrown (`**Error**: … Error SQL Statement: …`): RAGFlow's DB Assistant loops
 * on it through a Switch and a model that corrects the SQL. A connection or credential failure is a component error.
 */

const NAME = "ExeSQL";
const DB_TYPES = ["mysql", "postgresql", "mariadb"] as const;
/** Reaching the database and signing in; a server that takes longer is as good as unreachable. */
const CONNECT_TIMEOUT_MS = 10_000;
/** What the client waits beyond the server's own statement time-out before it gives up on the connection. */
const CLIENT_GRACE_MS = 5_000;
/** Statements that read; anything else is refused before it is sent. */
const READ_KEYWORDS = new Set(["select", "with", "show", "explain", "describe", "desc", "values", "table"]);
/** PostgreSQL statements read through a cursor, so that rows past `top_n` are counted, not held. */
const CURSOR_KEYWORDS = new Set(["select", "with", "values", "table"]);

const sqlError = (name: string, params?: Record<string, unknown>) => new DomainError("BAD_REQUEST", `flow.components.ExeSQL.errors.${name}`, params);
const connectionError = (name: string, params?: Record<string, unknown>) => new DomainError("OUTSIDE_SERVICE", `flow.components.ExeSQL.errors.${name}`, params);

/**
 * The statements of a model's answer (RAGFlow's rule, made safer): the SQL of a ```sql block when there is
 * one, else the text from its first SELECT or WITH up to its last `;` (what follows is prose); split on the
 * `;`s that are not inside quotes or comments.
 */
export function sqlStatements(text: string): string[] {
  const fenced = /```(?:sql)?[ \t]*\r?\n?([\s\S]*?)```/i.exec(text);
  let sql = fenced ? fenced[1] : text;
  if (!fenced) {
    const start = sql.search(/\bSELECT\b|\bWITH\s+(?:RECURSIVE\s+)?[\w"`]+\s*(?:\([^()]*\)\s*)?AS\b/i);
    if (start > 0) sql = sql.slice(start);
    const end = lastSeparator(sql);
    if (end >= 0) sql = sql.slice(0, end + 1);
  }
  return splitStatements(sql);
}

/** Offsets of the `;`s that end statements (not those in quotes, identifiers or comments). */
function separators(sql: string): number[] {
  const found: number[] = [];
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"' || c === "`") {
      // a quote ends at its unescaped twin; a doubled quote is an escaped one
      for (i++; i < sql.length; i++) {
        if (sql[i] === "\\" && c === "'") i++;
        else if (sql[i] === c) {
          if (sql[i + 1] === c) i++;
          else break;
        }
      }
    } else if (c === "-" && sql[i + 1] === "-") {
      while (i < sql.length && sql[i] !== "\n") i++;
    } else if (c === "/" && sql[i + 1] === "*") {
      const close = sql.indexOf("*/", i + 2);
      i = close < 0 ? sql.length : close + 1;
    } else if (c === ";") found.push(i);
  }
  return found;
}

function lastSeparator(sql: string): number {
  return separators(sql).at(-1) ?? -1;
}

function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let from = 0;
  for (const at of [...separators(sql), sql.length]) {
    const statement = sql.slice(from, at).trim();
    if (statement.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, "").trim() !== "") statements.push(statement);
    from = at + 1;
  }
  return statements;
}

/** The statement's first keyword, past comments and opening parentheses. */
function firstKeyword(statement: string): string {
  const bare = statement.replace(/^(?:\s|\(|--[^\n]*\n?|\/\*[\s\S]*?\*\/)+/, "");
  return (/^[a-z]+/i.exec(bare)?.[0] ?? "").toLowerCase();
}

export const isReadStatement = (statement: string) => READ_KEYWORDS.has(firstKeyword(statement));

interface StatementResult {
  columns: string[];
  rows: string[][];
  total: number;
}

/** An error the database answered about a statement (the SQL is at fault, not the connection). */
class StatementFailed extends Error {}

interface Session {
  run(statement: string, limit: number): Promise<StatementResult>;
  /** Rolls the transaction back and closes the connection. */
  close(): Promise<void>;
  /** Drops the connection at once (a time-out, a cancelled run). */
  destroy(): void;
}

interface DatabaseParams {
  db_type: string;
  database: string;
  username: string;
  host: string;
  port: number;
  password: string;
  timeout: number;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  if (Buffer.isBuffer(value)) return `0x${value.subarray(0, 32).toString("hex")}${value.length > 32 ? "…" : ""}`;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** Resolves the host once, checks every address with the policy, and answers the one the driver connects to. */
async function checkedAddress(host: string, port: number, policy: OutboundPolicy): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, "");
  let lookup: net.LookupFunction;
  try {
    ({ lookup } = guardedConnection(`http://${net.isIPv6(bare) ? `[${bare}]` : bare}:${port}/`, policy));
  } catch (error) {
    // The guard reads the host as a URL's: one that is not a host name or address is the form's mistake.
    throw error instanceof OutboundRefused && error.reason === "url" ? sqlError("host", { host }) : error;
  }
  return new Promise((resolve, reject) => {
    lookup(bare, {}, (error, address) => {
      if (error instanceof DomainError) reject(error);
      else if (error || typeof address !== "string" || address === "") reject(connectionError("unreachable", { host, port, reason: error?.message ?? "no address" }));
      else resolve(address);
    });
  });
}

async function openPostgres(address: string, params: DatabaseParams): Promise<Session> {
  const client = new pg.Client({
    host: address,
    port: params.port,
    user: params.username,
    password: params.password,
    database: params.database,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: "cairn-flow",
  });
  // A connection that breaks between queries must not become an unhandled error; the next query reports it.
  client.on("error", () => undefined);
  try {
    await client.connect();
    // PostgreSQL 14+ then ends a statement whose client went away (a time-out, a cancelled run); older servers lack it.
    await client.query("SET client_connection_check_interval = 1000").catch(() => undefined);
    await client.query("BEGIN TRANSACTION READ ONLY");
  } catch (error) {
    await client.end().catch(() => undefined);
    throw connectFailure(error, params);
  }
  const failed = (error: unknown) => {
    // A server error has an SQLSTATE; connection problems (class 08, an administrator's shutdown 57P0x) are not the SQL's fault.
    const code = (error as { code?: unknown }).code;
    const aboutStatement = typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) && !/^08|^57P0/.test(code);
    return aboutStatement ? new StatementFailed((error as Error).message) : error;
  };
  return {
    async run(statement, limit) {
      // Again before each statement: a SELECT may call set_config() on it.
      await client.query(`SET LOCAL statement_timeout = ${Math.round(params.timeout * 1000)}`);
      await client.query("SAVEPOINT cairn_statement");
      try {
        let result: StatementResult;
        // Parameters make the driver use the extended protocol, which runs one statement only.
        if (CURSOR_KEYWORDS.has(firstKeyword(statement))) {
          await client.query({ text: `DECLARE cairn_rows NO SCROLL CURSOR FOR ${statement}`, values: [] });
          const fetched = await client.query({ text: `FETCH FORWARD ${limit} FROM cairn_rows`, rowMode: "array" });
          const rest = await client.query("MOVE FORWARD ALL IN cairn_rows");
          await client.query("CLOSE cairn_rows");
          result = { columns: fetched.fields.map((f) => f.name), rows: fetched.rows.map((row: unknown[]) => row.map(cell)), total: fetched.rows.length + (rest.rowCount ?? 0) };
        } else {
          const answer = await client.query({ text: statement, values: [], rowMode: "array" });
          result = { columns: answer.fields.map((f) => f.name), rows: answer.rows.slice(0, limit).map((row: unknown[]) => row.map(cell)), total: answer.rows.length };
        }
        await client.query("RELEASE SAVEPOINT cairn_statement");
        return result;
      } catch (error) {
        await client.query("ROLLBACK TO SAVEPOINT cairn_statement").catch(() => undefined);
        throw failed(error);
      }
    },
    async close() {
      try {
        await client.query("ROLLBACK");
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    destroy() {
      // pg has no public way to drop a connection in the middle of a query (end() waits for the server's answer).
      (client as unknown as { connection?: { stream?: net.Socket } }).connection?.stream?.destroy();
      void client.end().catch(() => undefined);
    },
  };
}

async function openMysql(address: string, params: DatabaseParams): Promise<Session> {
  const connection = mysql.createConnection({
    host: address,
    port: params.port,
    user: params.username,
    password: params.password,
    database: params.database,
    connectTimeout: CONNECT_TIMEOUT_MS,
    multipleStatements: false,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  connection.on("error", () => undefined);
  const query = (sql: string) =>
    new Promise<unknown>((resolve, reject) => connection.query(sql, (error, rows) => (error ? reject(error) : resolve(rows))));
  try {
    await new Promise<void>((resolve, reject) => connection.connect((error) => (error ? reject(error) : resolve())));
    const [{ version }] = (await query("SELECT VERSION() AS version")) as { version: string }[];
    // MariaDB bounds every statement in seconds; MySQL bounds SELECTs in milliseconds.
    if (/mariadb/i.test(version)) await query(`SET SESSION max_statement_time = ${params.timeout}`);
    else await query(`SET SESSION max_execution_time = ${Math.round(params.timeout * 1000)}`);
    await query("SET SESSION TRANSACTION READ ONLY");
    await query("START TRANSACTION READ ONLY");
  } catch (error) {
    connection.destroy();
    throw connectFailure(error, params);
  }
  return {
    run(statement, limit) {
      return new Promise((resolve, reject) => {
        const result: StatementResult = { columns: [], rows: [], total: 0 };
        // Streamed: rows past the limit are counted and dropped, never held.
        connection
          .query({ sql: statement, rowsAsArray: true })
          .on("fields", (fields: { name: string }[]) => {
            result.columns = fields.map((field) => field.name);
          })
          .on("result", (row: unknown) => {
            if (!Array.isArray(row)) return;
            if (result.rows.length < limit) result.rows.push(row.map(cell));
            result.total++;
          })
          .on("error", (error: Error & { fatal?: boolean; sqlState?: string }) => reject(!error.fatal && error.sqlState ? new StatementFailed(error.message) : error))
          .on("end", () => resolve(result));
      });
    },
    async close() {
      try {
        await query("ROLLBACK");
      } finally {
        await new Promise<void>((resolve) => connection.end(() => resolve()));
      }
    },
    destroy() {
      connection.destroy();
    },
  };
}

const CREDENTIAL_CODES = new Set(["28P01", "28000", "3D000", "ER_ACCESS_DENIED_ERROR", "ER_DBACCESS_DENIED_ERROR", "ER_BAD_DB_ERROR", "ER_ACCESS_DENIED_NO_PASSWORD_ERROR"]);

function connectFailure(error: unknown, params: DatabaseParams): DomainError {
  if (error instanceof DomainError) return error;
  const code = String((error as { code?: unknown }).code ?? "");
  if (CREDENTIAL_CODES.has(code)) return connectionError("credentials", { username: params.username, database: params.database });
  return connectionError("unreachable", { host: params.host, port: params.port, reason: (error as Error).message });
}

function databaseParams(values: Record<string, unknown>): DatabaseParams {
  return {
    db_type: String(values.db_type),
    database: String(values.database ?? ""),
    username: String(values.username ?? ""),
    host: String(values.host ?? "").trim(),
    port: Number(values.port),
    password: String(values.password ?? ""),
    timeout: Number(values.timeout),
  };
}

/** Without the run's policy, a database on the internal network is out of reach (fails closed). */
const PUBLIC_ONLY = outboundPolicy({ privateNetworks: false, redirects: "same-class" });

async function openSession(params: DatabaseParams, ports: FlowPorts): Promise<Session> {
  const address = await checkedAddress(params.host, params.port, ports.outboundPolicy ?? PUBLIC_ONLY);
  return params.db_type === "postgresql" ? openPostgres(address, params) : openMysql(address, params);
}

/** Runs one statement, dropping the connection when the server's own time-out did not end it, or the run is cancelled. */
async function runBounded(session: Session, statement: string, limit: number, params: DatabaseParams, signal: AbortSignal): Promise<StatementResult> {
  signal.throwIfAborted();
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      session.destroy();
      reject(connectionError("timeout", { seconds: params.timeout }));
    }, params.timeout * 1000 + CLIENT_GRACE_MS);
    onAbort = () => {
      session.destroy();
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([session.run(statement, limit), stopped]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort!);
  }
}

function statementOutput(context: ComponentContext, result: StatementResult): string {
  if (result.total === 0) return `Total: 0\n${localizedMessage(context.language, "flow.components.ExeSQL.noRecord")}`;
  return `Total: ${result.total}\n${markdownTable(result.columns, result.rows)}`;
}

/** RAGFlow's error output, which its DB Assistant's Switch recognises by "Error". */
const errorOutput = (message: string, statement: string) => `**Error**: ${message}\nError SQL Statement: ${statement}`;

export const exeSql: ComponentDefinition = {
  name: NAME,
  category: "tools",
  icon: "LuDatabase",
  needs: ["database"],
  secretsGoTo: ["db_type", "host", "port"],
  params: [
    DESCRIPTION,
    INPUT_VARIABLES,
    { key: "db_type", type: "select", label: "flow.components.ExeSQL.params.db_type", options: DB_TYPES.map((value) => ({ value })), default: "mysql" },
    { key: "database", type: "string", label: "flow.components.ExeSQL.params.database", required: true, trimmed: true },
    { key: "username", type: "string", label: "flow.components.ExeSQL.params.username", required: true, trimmed: true },
    { key: "host", type: "string", label: "flow.components.ExeSQL.params.host", help: "flow.components.ExeSQL.help.host", required: true, trimmed: true },
    { key: "port", type: "integer", label: "flow.components.ExeSQL.params.port", min: 1, max: 65_535, default: 3306 },
    // Unlike RAGFlow, not required: a database may let a user in without one (trust authentication).
    { key: "password", type: "secret", label: "flow.components.ExeSQL.params.password", default: "" },
    { key: "loop", type: "integer", label: "flow.components.ExeSQL.params.loop", help: "flow.components.ExeSQL.help.loop", min: 1, max: 100, default: 3 },
    topN(30, 1000),
    { key: "timeout", type: "integer", label: "flow.components.ExeSQL.params.timeout", help: "flow.components.ExeSQL.help.timeout", min: 1, max: 600, default: 30 },
  ],
  async run(context) {
    const loop = Number(context.params.loop);
    if (context.loopCount > loop) throw sqlError("loop", { loop });
    const statements = sqlStatements(inputText(context));
    if (statements.length === 0) throw sqlError("noSql");
    const params = databaseParams(context.params);
    const limit = Number(context.params.top_n);
    const outputs: (string | null)[] = statements.map((statement) =>
      isReadStatement(statement) ? null : errorOutput(localizedMessage(context.language, "flow.components.ExeSQL.readOnly"), statement),
    );
    if (outputs.some((output) => output === null)) {
      const session = await openSession(params, context.ports);
      try {
        for (const [i, statement] of statements.entries()) {
          if (outputs[i] !== null) continue;
          try {
            outputs[i] = statementOutput(context, await runBounded(session, statement, limit, params, context.signal));
          } catch (error) {
            if (!(error instanceof StatementFailed)) throw error instanceof DomainError || context.signal.aborted ? error : connectFailure(error, params);
            outputs[i] = errorOutput(error.message, statement);
          }
        }
      } finally {
        await session.close().catch(() => undefined);
      }
    }
    const items: OutputItem[] = outputs.map((content) => ({ content: content! }));
    return { content: items.map((item) => item.content).join("\n\n"), items };
  },
};

/**
 * The editor's "Test" button: connects with the form's values (through the same address check), opens the
 * read-only transaction and runs `SELECT 1`. Resolves when it works; a translated DomainError says why not.
 */
export async function testDatabaseConnection(values: ParamValues, ports: FlowPorts): Promise<void> {
  const filled = withDefaults(exeSql.params, values);
  const problems = validate(exeSql.params, filled).filter((problem) => ["db_type", "database", "username", "host", "port", "password", "timeout"].includes(problem.path));
  if (problems.length > 0) {
    const [first] = problems;
    throw new DomainError("BAD_REQUEST", first.messageKey, first.params, problems.map((p) => ({ field: p.path, messageKey: p.messageKey, params: p.params })));
  }
  const params = databaseParams(filled);
  const session = await openSession(params, ports);
  try {
    await runBounded(session, "SELECT 1", 1, params, new AbortController().signal).catch((error: unknown) => {
      throw error instanceof StatementFailed ? connectionError("unreachable", { host: params.host, port: params.port, reason: error.message }) : error;
    });
  } finally {
    await session.close().catch(() => undefined);
  }
}
