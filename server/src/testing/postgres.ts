import type net from "node:net";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { servePGlite } from "../platform/pglite-wire";

export interface TestPostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres, for DATABASE_URL. */
  url: string;
  stop(): Promise<void>;
}

/**
 * An in-memory PGlite with pgvector, served over the Postgres wire protocol on a free loopback TCP port
 * (platform/pglite-wire.ts, as the embedded database is served), so that other processes (a server,
 * workers) can use it as their DATABASE_URL, as they would a shared PostgreSQL.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const db = await PGlite.create({ extensions: { vector } });
  try {
    const served = await servePGlite(db, { host: "127.0.0.1", port: 0 });
    return {
      url: `postgres://postgres@127.0.0.1:${(served.address as net.AddressInfo).port}/postgres`,
      stop: async () => {
        await served.stop();
        await db.close();
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}
