import "reflect-metadata";
import { ConfigError, loadConfig } from "./platform/config";
import { startServer } from "./app";
import { configureBuiltinModels, prepareBuiltinModels } from "./models/builtin/builtin.provider";
import { countTokens } from "./models/tokens";

async function main(): Promise<void> {
  const startedAt = performance.now();
  // Files that libraries create in DATA_DIR (the embedded database's, OCR's) are then owner-only too, like Cairn's own.
  process.umask(0o077);
  const config = loadConfig();
  configureBuiltinModels({ cacheDirectory: config.modelCacheDir });
  const server = await startServer(config);
  // Loaded in the background (the build derived them), so that the first embedding does not wait for them…
  prepareBuiltinModels().catch((error) => console.error("[models] could not prepare the built-in models:", error));
  // …and the first file does not wait for a parse process to load its parsers, nor for the tokenizer's tables.
  if (config.jobConcurrency > 0) {
    server.services.parsers.warmUp();
    setImmediate(() => countTokens("warm up"));
  }
  console.log(`Cairn is listening on ${server.bound}: open ${server.url} (ready in ${Math.round(performance.now() - startedAt)} ms)`);
  for (const line of server.platform.describe()) console.log(`  ${line}`);
  console.log(`  GraphQL${server.platform.config.graphqlIntrospection ? " and its explorer" : ""}: ${server.url}/graphql`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received, shutting down`);
    await server.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
