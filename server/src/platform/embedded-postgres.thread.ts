import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { servePGlite } from "./pglite-wire";

/** The embedded database's thread (embedded-postgres.ts): PGlite in DATA_DIR, served on a Unix socket. */
async function serve(dataDir: string, socketPath: string): Promise<{ stop(): Promise<void> }> {
  const db = await PGlite.create({ dataDir, extensions: { vector } });
  const served = await servePGlite(db, { path: socketPath });
  return {
    async stop() {
      await served.stop();
      await db.close();
    },
  };
}
if (parentPort) {
  const port = parentPort;
  const { dataDir, socketPath } = workerData as { dataDir: string; socketPath: string };
  serve(dataDir, socketPath).then(
    (served) => {
      port.on("message", async (message) => {
        if (message !== "stop") return;
        await served.stop();
        port.postMessage({ stopped: true });
      });
      port.postMessage({ ready: true });
    },
    (error: unknown) => port.postMessage({ error: String((error instanceof Error && error.stack) || error) }),
  );
}
