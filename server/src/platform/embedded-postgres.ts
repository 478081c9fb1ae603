import { Worker } from "node:worker_threads";
import { childScript } from "./child-script";

/**
 * PGlite (PostgreSQL compiled to WebAssembly, with pgvector) served over the Postgres wire protocol on a
 * Unix socket, in a worker thread of its own (embedded-postgres.thread.ts). In the main thread it shared
 * one core with parsing, embedding and GraphQL; in its own thread the database works on the second core
 * while the server computes (profiles of ingestion show both threads busy).
 */

export interface EmbeddedPostgres {
  stop(): Promise<void>;
}

type ThreadMessage = { ready?: true; stopped?: true; error?: string };

export async function startEmbeddedPostgres(dataDir: string, socketPath: string): Promise<EmbeddedPostgres> {
  const { entry, execArgv } = childScript(__filename, "embedded-postgres.thread");
  const worker = new Worker(entry, { execArgv, workerData: { dataDir, socketPath } });
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
