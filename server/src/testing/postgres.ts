import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

export interface TestPostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres, for DATABASE_URL. */
  url: string;
  stop(): Promise<void>;
}

/**
 * An in-memory PGlite with pgvector, served over the Postgres wire protocol on a free loopback TCP port,
 * so that another process (a worker) can use it as its DATABASE_URL. PGlite is one backend session shared
 * by every connection; maxConnections must cover the client's pool (TypeORM's is 8), or extra
 * connections are turned away.
 */
export async function startPostgres(): Promise<TestPostgres> {
  const db = await PGlite.create({ extensions: { vector } });
  const server = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1", maxConnections: 16 });
  try {
    await server.start();
  } catch (error) {
    await db.close();
    throw error;
  }
  return {
    url: `postgres://postgres@${server.getServerConn()}/postgres`,
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}
