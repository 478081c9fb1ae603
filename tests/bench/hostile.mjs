// npm run bench:hostile — starts the built server (server/dist/main.js) as `npm start` does, on a fresh DATA_DIR,
// and drives it through the hostile-input corpus of tests/hostile: prints the server's peak resident memory, the
// slowest /healthz answer while the corpus parsed, and the time each file took to end (failed or read), and
// writes them to tests/bench/results/hostile.json.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { machine, writeResult } from "./beir.mjs";

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const { hostileCorpus } = require(path.join(root, "tests/hostile/corpus.cjs"));
const { driveCorpus } = require(path.join(root, "tests/hostile/drive.cjs"));

const generatedAt = performance.now();
const files = await hostileCorpus();
console.log(`${files.length} hostile files generated in ${((performance.now() - generatedAt) / 1000).toFixed(1)} s`);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-bench-hostile-"));
const port = 9389;
const server = spawn(process.execPath, [path.join(root, "server/dist/main.js")], {
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    MODEL_CACHE_DIR: process.env.MODEL_CACHE_DIR ?? path.join(os.tmpdir(), "cairn-model-cache"),
  },
  stdio: ["ignore", "pipe", "inherit"],
});
try {
  await new Promise((resolve, reject) => {
    let output = "";
    server.stdout.on("data", (chunk) => {
      output += chunk;
      if (/Cairn is listening on/.test(output)) resolve();
    });
    server.once("exit", (code) => reject(new Error(`the server exited with ${code} before it listened`)));
  });
  const result = await driveCorpus(`http://127.0.0.1:${port}`, server.pid, files, { timeoutMs: 1_800_000 });
  const ended = result.outcomes.filter((o) => o.seconds !== null);
  const summary = {
    date: new Date().toISOString(),
    machine: machine(),
    files: files.length,
    refusedAtUpload: result.outcomes.filter((o) => o.outcome === "refused").length,
    failed: result.outcomes.filter((o) => o.outcome === "failed").length,
    read: result.outcomes.filter((o) => o.outcome === "done").length,
    unexpected: result.outcomes.filter((o) => o.outcome !== o.expected).map((o) => `${o.name}: ${o.outcome}, expected ${o.expected}`),
    serverAlive: server.exitCode === null,
    serverPeakRssMB: Math.round(result.peakRssBytes / 1024 / 1024),
    slowestHealthzMs: Math.round(result.slowestMs),
    healthzAnswers: result.answers,
    healthzFailures: result.failures.length,
    allEndedSeconds: Math.max(...ended.map((o) => o.seconds)),
    outcomes: result.outcomes.map(({ name, attack, outcome, reason, lastLine, seconds }) => ({ name, attack, outcome, reason, lastLine, seconds })),
  };
  for (const o of summary.outcomes) {
    console.log(`${(o.seconds ?? NaN).toFixed(1).padStart(6)} s  ${o.outcome.padEnd(6)}  ${o.name.replace(/[\u0000-\u001f]/g, "?")}  ${o.reason ?? o.lastLine}`);
  }
  console.log(`server alive: ${summary.serverAlive}; peak RSS ${summary.serverPeakRssMB} MB; slowest /healthz ${summary.slowestHealthzMs} ms over ${summary.healthzAnswers} answers (${summary.healthzFailures} failed)`);
  console.log(`${summary.failed} failed with a reason, ${summary.read} read, ${summary.refusedAtUpload} refused at upload; all ended after ${summary.allEndedSeconds.toFixed(1)} s`);
  if (summary.unexpected.length > 0) console.log(`unexpected: ${summary.unexpected.join("; ")}`);
  writeResult("hostile.json", summary);
} finally {
  server.kill("SIGTERM");
  await new Promise((resolve) => (server.exitCode !== null ? resolve() : server.once("exit", resolve)));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
