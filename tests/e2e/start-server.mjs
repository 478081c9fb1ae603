// Starts the built server for the browser tests on a data directory of its own, and deletes that
// directory when the server stops, so every run begins with an empty database.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const dataDir = mkdtempSync(join(tmpdir(), "cairn-e2e-"));

// The built-in models' WordNet cache is built once per machine (~25 s), not once per test run. It is ready
// before the server reports healthy: on a fresh machine the first tests would otherwise wait for it.
// (In a process of its own, so that this launcher does not keep the tables in memory.)
const modelCacheDir = join(tmpdir(), "cairn-model-cache");
const provider = join(root, "server/dist/models/builtin/builtin.provider.js");
const prepared = spawnSync(
  process.execPath,
  ["-e", `const m = require(${JSON.stringify(provider)}); m.configureBuiltinModels({ cacheDirectory: ${JSON.stringify(modelCacheDir)} }); m.prepareBuiltinModels()`],
  { stdio: "inherit" },
);
if (prepared.status !== 0) process.exit(1);

const server = spawn(process.execPath, [join(root, "server/dist/main.js")], {
  cwd: root,
  stdio: "inherit",
  // Every browser test signs up from 127.0.0.1: the sign-up limits per address and network would stop the run after a few.
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    MODEL_CACHE_DIR: modelCacheDir,
    PORT: process.env.PORT ?? "9399",
    HOST: "127.0.0.1",
    SIGNUP_ADDRESS_FREE: "10000",
    SIGNUP_NETWORK_FREE: "100000",
    SIGNIN_ADDRESS_FREE_ATTEMPTS: "10000",
    SIGNIN_NETWORK_FREE_ATTEMPTS: "100000",
    // A test's request context keeps its connections open while the browser works: were the server to close an idle
    // one just as the test sends on it, that request would fail with ECONNRESET. The client always closes first.
    HTTP_KEEP_ALIVE_SECONDS: "600",
  },
});

function removeDataDir() {
  rmSync(dataDir, { recursive: true, force: true });
}

/** How long the server may take to stop before it is killed; its data is thrown away anyway. */
const STOP_DEADLINE_MS = 1000;

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.kill(signal);
    setTimeout(() => server.kill("SIGKILL"), STOP_DEADLINE_MS).unref();
  });
}

server.on("exit", (code, signal) => {
  removeDataDir();
  process.exit(code ?? (signal ? 0 : 1));
});
