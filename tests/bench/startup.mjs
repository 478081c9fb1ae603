// npm run bench:startup — cold start of the built server to its first /healthz answer (fresh and existing
// DATA_DIR), and the size of the JavaScript the browser loads before the first page renders.
// Run `npm run build` first. Writes tests/bench/results/startup.json.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const port = 9388;

async function timeToHealthy(dataDir) {
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(root, "server/dist/main.js")], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1" },
    stdio: "ignore",
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (response.ok) return performance.now() - started;
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 120_000) throw new Error("no healthy answer within 120 s");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
}

function initialJavaScript() {
  const dist = path.join(root, "client/dist");
  const html = fs.readFileSync(path.join(dist, "index.html"), "utf8");
  const files = [...html.matchAll(/(?:src|href)="\/?([^"]+\.js)"/g)].map((m) => m[1]);
  let raw = 0;
  let gzip = 0;
  for (const file of new Set(files)) {
    const content = fs.readFileSync(path.join(dist, file));
    raw += content.length;
    gzip += zlib.gzipSync(content, { level: 9 }).length;
  }
  return { files: [...new Set(files)], rawBytes: raw, gzipBytes: gzip };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-bench-"));
try {
  const freshMs = await timeToHealthy(dataDir);
  const existingMs = await timeToHealthy(dataDir);
  const bundle = initialJavaScript();
  const result = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version },
    coldStartFreshDataDirMs: Math.round(freshMs),
    coldStartExistingDataDirMs: Math.round(existingMs),
    clientInitialJs: bundle,
  };
  console.log(`cold start to /healthz, fresh DATA_DIR:    ${result.coldStartFreshDataDirMs} ms`);
  console.log(`cold start to /healthz, existing DATA_DIR: ${result.coldStartExistingDataDirMs} ms`);
  console.log(`client initial JavaScript: ${(bundle.rawBytes / 1024).toFixed(1)} KiB raw, ${(bundle.gzipBytes / 1024).toFixed(1)} KiB gzip (${bundle.files.length} files)`);
  const out = path.join(root, "tests/bench/results/startup.json");
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${path.relative(root, out)}`);
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
