import { Worker } from "node:worker_threads";

/**
 * PGlite (PostgreSQL compiled to WebAssembly, with pgvector) served over the Postgres wire protocol on a
 * Unix socket, in a worker thread of its own. In the main thread it shared one core with parsing,
 * embedding and GraphQL; in its own thread the database works on the second core while the server
 * computes (profiles of ingestion show both threads busy). The thread's code is a few lines of CommonJS
 * given by source, so it runs the same from the compiled server and under the test runner.
 */

const THREAD_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { PGlite } = require(workerData.modules.pglite);
const { vector } = require(workerData.modules.pgvector);
const { PGLiteSocketServer } = require(workerData.modules.socket);
(async () => {
  const db = await PGlite.create({ dataDir: workerData.dataDir, extensions: { vector } });
  const server = new PGLiteSocketServer({ db, path: workerData.socketPath, maxConnections: 16 });
  await server.start();
  parentPort.on("message", async (message) => {
    if (message !== "stop") return;
    await server.stop();
    await db.close();
    parentPort.postMessage({ stopped: true });
  });
  parentPort.postMessage({ ready: true });
})().catch((error) => parentPort.postMessage({ error: String(error && error.stack || error) }));
`;

export interface EmbeddedPostgres {
  stop(): Promise<void>;
}

type ThreadMessage = { ready?: true; stopped?: true; error?: string };

export async function startEmbeddedPostgres(dataDir: string, socketPath: string): Promise<EmbeddedPostgres> {
  const worker = new Worker(THREAD_SOURCE, {
    eval: true,
    workerData: {
      dataDir,
      socketPath,
      modules: {
        pglite: require.resolve("@electric-sql/pglite"),
        pgvector: require.resolve("@electric-sql/pglite-pgvector"),
        socket: require.resolve("@electric-sql/pglite-socket"),
      },
    },
  });
  let stopping = false;
  const next = (wanted: keyof ThreadMessage) =>
    new Promise<void>((resolve, reject) => {
      const onMessage = (message: ThreadMessage) => {
        if (message.error) finish(new Error(`The embedded database could not start: ${message.error}`));
        else if (message[wanted]) finish();
      };
      const onExit = (code: number) => finish(new Error(`The embedded database thread exited with code ${code}`));
      const finish = (error?: Error) => {
        worker.off("message", onMessage);
        worker.off("exit", onExit);
        if (error) reject(error);
        else resolve();
      };
      worker.on("message", onMessage);
      worker.on("exit", onExit);
    });
  worker.on("error", (error) => console.error("[database] the embedded database thread failed:", error));
  worker.on("exit", (code) => {
    if (!stopping) console.error(`[database] the embedded database thread stopped unexpectedly (code ${code})`);
  });
  try {
    await next("ready");
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  return {
    async stop() {
      stopping = true;
      const stopped = next("stopped");
      worker.postMessage("stop");
      await stopped;
      await worker.terminate();
    },
  };
}
