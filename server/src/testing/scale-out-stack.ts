import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { prepareBuiltinModels } from "../models/builtin/builtin.provider";
import { modelCacheDirectory } from "../models/builtin/lexicon";
import { startPacedOpenAiServer, type PacedServer, type PacedServerOptions } from "../models/testing/paced-openai-server";
import { startPostgres, type TestPostgres } from "./postgres";
import { freePort, spawnTs, type TsProcess } from "./processes";
import { startRedis, type TestRedis } from "./redis";

/**
 * The whole product as production runs it (README "Production set-up"), on one machine: two server processes
 * (src/main.ts) and two worker processes (src/worker.ts) over one Redis, one PostgreSQL-protocol database (PGlite
 * with pgvector behind testing/postgres.ts), one S3 server (s3rver) and a paced OpenAI-compatible model server. The
 * servers leave every job to the workers (JOB_CONCURRENCY=0, INTERACTIVE_JOB_CONCURRENCY=0): a document uploaded
 * through a server, and a flow's turn, always run in another process.
 */

export interface StackServer {
  /** http://127.0.0.1:PORT */
  url: string;
  process: TsProcess;
}

export interface ScaleOutStack {
  servers: StackServer[];
  workers: TsProcess[];
  model: PacedServer;
  redis: TestRedis;
  postgres: TestPostgres;
  stop(): Promise<void>;
}

export interface ScaleOutOptions {
  /** The paced model's answers. */
  model?: PacedServerOptions;
  /** Where the servers find the built client; none by default (the API alone). */
  clientDir?: string;
  /** Background jobs each worker runs at once (default 1). */
  workerConcurrency?: number;
}

const S3_KEY = "S3RVER";
/** How long a process may take to start: four compile the sources at once on a two-core machine. */
const START_TIMEOUT_MS = 90_000;

export async function startScaleOutStack(options: ScaleOutOptions = {}): Promise<ScaleOutStack> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-scale-out-"));
  const started: TsProcess[] = [];
  let redis: TestRedis | undefined;
  let postgres: TestPostgres | undefined;
  let model: PacedServer | undefined;
  let s3: S3rver | undefined;
  const stop = async () => {
    await Promise.all(started.map((p) => p.stop(2_000)));
    await Promise.all([redis?.stop(), postgres?.stop(), model?.close(), s3?.close()]);
    fs.rmSync(scratch, { recursive: true, force: true });
  };
  try {
    s3 = new S3rver({ port: 0, address: "127.0.0.1", directory: path.join(scratch, "s3"), silent: true });
    // The model cache is built here if this machine has none yet (~25 s, else ~1 s to load), before four
    // processes would each build it.
    let s3Port: number;
    [redis, postgres, model, { port: s3Port }] = await Promise.all([startRedis(), startPostgres(), startPacedOpenAiServer(options.model), s3.run(), prepareBuiltinModels()]);
    const shared: Record<string, string> = {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_ACCESS_KEY: S3_KEY,
      S3_SECRET_KEY: S3_KEY,
      S3_BUCKET: "cairn-scale-out",
      // One key for every process (README): a model key one server seals, a worker must open.
      SECRET_KEY: randomBytes(32).toString("hex"),
      MODEL_CACHE_DIR: modelCacheDirectory(),
    };
    const dataDir = (name: string) => {
      const dir = path.join(scratch, name);
      fs.mkdirSync(dir, { mode: 0o700 });
      return dir;
    };
    const spawn = (entry: string, env: Record<string, string>) => {
      const child = spawnTs(entry, env);
      started.push(child);
      return child;
    };
    const startServer = async (name: string): Promise<StackServer> => {
      const port = await freePort();
      const child = spawn("src/main.ts", {
        ...shared,
        DATA_DIR: dataDir(name),
        PORT: String(port),
        HOST: "127.0.0.1",
        CLIENT_DIR: options.clientDir ?? path.join(scratch, "no-client"),
        JOB_CONCURRENCY: "0",
        INTERACTIVE_JOB_CONCURRENCY: "0",
        // The client closes idle connections first (see testing/app.ts).
        HTTP_KEEP_ALIVE_SECONDS: "600",
      });
      await child.waitForOutput(/Cairn is listening on/, START_TIMEOUT_MS);
      return { url: `http://127.0.0.1:${port}`, process: child };
    };
    const startWorker = async (name: string): Promise<TsProcess> => {
      const child = spawn("src/worker.ts", { ...shared, DATA_DIR: dataDir(name), JOB_CONCURRENCY: String(options.workerConcurrency ?? 1) });
      await child.waitForOutput(/Cairn worker \d+ is running jobs/, START_TIMEOUT_MS);
      return child;
    };
    // The first server migrates the empty database alone (PGlite is one session: the migration lock, a session
    // lock, cannot keep a second process out); then the others start together. (An in-memory PGlite, migrated here,
    // is quicker over the whole test than a copy of the Jest run's migrated template on disk.)
    const first = await startServer("server-a");
    const [second, ...workers] = await Promise.all([startServer("server-b"), startWorker("worker-1"), startWorker("worker-2")]);
    return { servers: [first, second as StackServer], workers: workers as TsProcess[], model, redis, postgres, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
