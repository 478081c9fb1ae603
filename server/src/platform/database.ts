import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DataSource, DefaultNamingStrategy, type DataSourceOptions, type NamingStrategyInterface } from "typeorm";
import type { Config } from "./config";
import { startHousekeeping, type Housekeeping } from "./embedded-housekeeping";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./embedded-postgres";
import { ensurePrivateDirectory, PRIVATE_FILE_MODE } from "./private-files";

/** Columns and tables in snake_case while entity properties stay camelCase. */
class SnakeNamingStrategy extends DefaultNamingStrategy implements NamingStrategyInterface {
  override tableName(className: string, customName?: string): string {
    return customName ?? snake(className);
  }
  override columnName(propertyName: string, customName: string | undefined, prefixes: string[]): string {
    return snake([...prefixes, customName ?? propertyName].join("_"));
  }
  override relationName(propertyName: string): string {
    return snake(propertyName);
  }
  override joinColumnName(relationName: string, referencedColumnName: string): string {
    return snake(`${relationName}_${referencedColumnName}`);
  }
}

function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/**
 * The tables: every entity and migration of the domains. The composition root hands them in
 * (server/src/platform-parts.ts), since the ground knows no domain.
 */
export interface DatabaseSchema {
  entities: NonNullable<DataSourceOptions["entities"]>;
  migrations: NonNullable<DataSourceOptions["migrations"]>;
}

export interface Database {
  dataSource: DataSource;
  /** "embedded PGlite (…)" or "PostgreSQL (…)": printed at start so an operator sees which one runs. */
  description: string;
  /** The embedded database's stand-in for autovacuum; a real PostgreSQL runs its own. */
  housekeeping?: Housekeeping;
  close(): Promise<void>;
}

function dataSourceOptions(schema: DatabaseSchema, poolSize: number) {
  return {
    type: "postgres" as const,
    entities: schema.entities,
    migrations: schema.migrations,
    migrationsRun: false,
    synchronize: false,
    namingStrategy: new SnakeNamingStrategy(),
    // gen_random_uuid() is core since PostgreSQL 13; uuid-ossp is not loaded in PGlite.
    uuidExtension: "pgcrypto" as const,
    extra: { max: poolSize },
  };
}

const embeddedDataSources = new WeakSet<DataSource>();

/**
 * Whether the data source is the embedded database, where every other statement waits while one runs: work that
 * takes minutes in one statement (an index build) is left out there.
 */
export const isEmbedded = (dataSource: DataSource): boolean => embeddedDataSources.has(dataSource);

/** Connections to the embedded database's thread (see embedded-postgres.thread.ts). */
const EMBEDDED_CONNECTIONS = 8;

// Any fixed number: the PostgreSQL advisory lock that lets one process at a time migrate a shared database.
const MIGRATION_LOCK = 7_335_102;

async function connect(dataSource: DataSource, shared: boolean): Promise<DataSource> {
  await dataSource.initialize();
  if (!shared) {
    await dataSource.runMigrations({ transaction: "each" });
    return dataSource;
  }
  // Servers and workers starting together against one PostgreSQL would otherwise run the same migration twice.
  const lock = dataSource.createQueryRunner();
  try {
    await lock.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await dataSource.runMigrations({ transaction: "each" });
  } finally {
    await lock.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => undefined);
    await lock.release();
  }
  return dataSource;
}

/** PostgreSQL with pgvector, from DATABASE_URL. */
async function openExternal(url: string, schema: DatabaseSchema): Promise<Database> {
  const dataSource = await connect(new DataSource({ ...dataSourceOptions(schema, 8), url }), true);
  const { hostname: host, port, pathname } = new URL(url);
  return {
    dataSource,
    description: `PostgreSQL (${host}${port ? `:${port}` : ""}${pathname})`,
    close: () => dataSource.destroy(),
  };
}

/**
 * The embedded default: PGlite (PostgreSQL compiled to WebAssembly, with pgvector) keeping its files in
 * DATA_DIR, served over the Postgres wire protocol on a private Unix socket so that TypeORM and `pg` run
 * exactly as they do against a real server. PGlite is one backend session shared by every connection,
 * so a lock file keeps a second process from opening the same directory.
 */
async function openEmbedded(dataDir: string, schema: DatabaseSchema): Promise<Database> {
  const pgDir = path.join(dataDir, "pg");
  ensurePrivateDirectory(pgDir);
  const releaseLock = lockDirectory(path.join(dataDir, "pg.lock"));
  // Unix socket paths are limited to about 100 bytes, so the socket lives in a short temporary directory.
  const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-pg-"));
  let postgres: EmbeddedPostgres | undefined;
  try {
    postgres = await startEmbeddedPostgres(pgDir, path.join(socketDir, ".s.PGSQL.5432"));
    // PGlite is one session: its thread runs one connection's statement at a time, whole, and only the
    // transaction's own connection while one is open. Several connections keep statements waiting there
    // while it works. Code inside a transaction must still use its EntityManager only: any other query
    // waits for the transaction to end.
    const dataSource = await connect(
      new DataSource({ ...dataSourceOptions(schema, EMBEDDED_CONNECTIONS), host: socketDir, port: 5432, username: "postgres", database: "postgres" }),
      false,
    );
    embeddedDataSources.add(dataSource);
    const running = postgres;
    const housekeeping = startHousekeeping(dataSource);
    return {
      dataSource,
      description: `embedded PGlite (${pgDir})`,
      housekeeping,
      close: async () => {
        await housekeeping.stop();
        await dataSource.destroy();
        await running.stop();
        fs.rmSync(socketDir, { recursive: true, force: true });
        releaseLock();
      },
    };
  } catch (error) {
    await postgres?.stop().catch(() => undefined);
    fs.rmSync(socketDir, { recursive: true, force: true });
    releaseLock();
    throw error;
  }
}

/** Refuses to open a data directory that another live process holds; a stale lock from a crash is taken over. */
function lockDirectory(lockFile: string): () => void {
  try {
    fs.writeFileSync(lockFile, String(process.pid), { flag: "wx", mode: PRIVATE_FILE_MODE });
  } catch {
    const holder = Number(fs.readFileSync(lockFile, "utf8"));
    if (holder && holder !== process.pid && isAlive(holder)) {
      throw new Error(`The data directory is in use by process ${holder}. Stop it first, or set DATA_DIR to another directory.`);
    }
    fs.writeFileSync(lockFile, String(process.pid));
  }
  return () => fs.rmSync(lockFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function openDatabase(config: Pick<Config, "databaseUrl" | "dataDir">, schema: DatabaseSchema): Promise<Database> {
  return config.databaseUrl ? openExternal(config.databaseUrl, schema) : openEmbedded(config.dataDir, schema);
}
