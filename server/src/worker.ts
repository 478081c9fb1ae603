import "reflect-metadata";
import { ConfigError, loadConfig } from "./platform/config";
import { createPlatform } from "./platform";
import { createServices } from "./services";
import { closeBuiltinModels, configureBuiltinModels } from "./models/builtin/builtin.provider";
import { platformParts } from "./platform-parts";

/**
 * `npm run worker`: a process that only runs queued jobs. Workers share jobs through Redis and data
 * through PostgreSQL, so both must be configured; the embedded parts live inside one server process.
 */
async function main(): Promise<void> {
  // Files that libraries create in DATA_DIR (the embedded database's, OCR's) are then owner-only too, like Cairn's own.
  process.umask(0o077);
  const config = loadConfig();
  const missing = [!config.redisUrl && "REDIS_URL", !config.databaseUrl && "DATABASE_URL"].filter(Boolean);
  if (missing.length > 0) {
    throw new ConfigError([`a worker process needs ${missing.join(" and ")}: in embedded mode the server runs jobs itself`]);
  }
  configureBuiltinModels({ cacheDirectory: config.modelCacheDir });
  const platform = await createPlatform(config, platformParts);
  const services = createServices(platform);
  // A worker always takes background jobs (it exists for them); INTERACTIVE_JOB_CONCURRENCY=0 keeps flow turns off it.
  platform.queue.start(services, { background: Math.max(1, config.jobConcurrency), interactive: config.interactiveJobConcurrency });
  services.parsers.warmUp();
  console.log(`Cairn worker ${process.pid} is running jobs`);
  for (const line of platform.describe()) console.log(`  ${line}`);

  const stop = async () => {
    await platform.queue.close();
    await services.close();
    await platform.close();
    await closeBuiltinModels();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
