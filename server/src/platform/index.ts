import path from "node:path";
import type { Config } from "./config";
import { openDatabase, type Database, type DatabaseSchema } from "./database";
import { FairScheduler } from "./fair-scheduler";
import { createMemoryPubSub, createRedisPubSub } from "./pubsub";
import { InProcessQueue, RedisQueue, type JobDefinition, type JobQueue } from "./queue";
import { ensurePrivateDirectory } from "./private-files";
import type { Platform, Services } from "./services";
import { DiskObjectStore, S3ObjectStore } from "./storage";

export type { Platform };

/** What the domains bring to the ground, handed in by the composition root (server/src/platform-parts.ts). */
export interface PlatformParts extends DatabaseSchema {
  /** Every kind of background job. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  jobs: JobDefinition<Services, any>[];
}

export async function createPlatform(config: Config, parts: PlatformParts): Promise<Platform> {
  ensurePrivateDirectory(config.dataDir);
  const database: Database = await openDatabase(config, parts);
  const pubsub = config.redisUrl ? createRedisPubSub(config.redisUrl) : createMemoryPubSub();
  const storage = config.s3 ? new S3ObjectStore(config.s3) : new DiskObjectStore(path.join(config.dataDir, "objects"));
  const queue: JobQueue<Services> = config.redisUrl
    ? new RedisQueue(config.redisUrl, parts.jobs)
    : new InProcessQueue(parts.jobs);
  return {
    config,
    db: database.dataSource,
    pubsub,
    storage,
    queue,
    heavyWork: new FairScheduler(config.heavyWork),
    describe: () => [
      `database: ${database.description}`,
      `pub/sub: ${config.redisUrl ? "Redis" : "in-process"}`,
      `objects: ${storage.description}`,
      `jobs: ${queue.description}`,
    ],
    close: async () => {
      await queue.close();
      await pubsub.close();
      await database.close();
    },
  };
}
