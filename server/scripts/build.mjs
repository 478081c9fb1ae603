// node server/scripts/build.mjs [--force] [--only=server|client|models]
//
// Builds what `npm start` runs, once: each part is rebuilt only when its sources changed since its last
// build (a fingerprint of their contents is kept beside the output), so a second start with nothing
// changed goes straight to the server. The parts:
// - server: the TypeScript sources compiled by swc, file by file, with decorator metadata — the same
//   transform the tests run (type errors are `npm run typecheck`'s business, not the start's);
// - client: the GraphQL typed documents (codegen) and the Vite bundle;
// - models: the built-in models' English lexicon, derived from WordNet once (~20 s), so that no
//   request and no first parse waits for it (server/src/models/builtin/prepare-lexicon.ts).
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
const force = args.includes("--force");
const only = args.find((a) => a.startsWith("--only="))?.slice("--only=".length);

/** Every file under `directory` (relative to the root) whose name passes `keep`, sorted. */
function filesUnder(directory, keep = () => true) {
  const found = [];
  const walk = (relative) => {
    const absolute = path.join(root, relative);
    if (!fs.existsSync(absolute)) return;
    for (const entry of fs.readdirSync(absolute, { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && entry.name !== "dist") walk(child);
      } else if (keep(child)) found.push(child);
    }
  };
  walk(directory);
  return found.sort();
}

function fingerprintOf(files) {
  const hash = crypto.createHash("sha256");
  for (const file of files) {
    hash.update(file);
    hash.update("\0");
    const absolute = path.join(root, file);
    if (fs.existsSync(absolute)) hash.update(fs.readFileSync(absolute));
    hash.update("\0");
  }
  return hash.digest("hex");
}

const isServerSource = (file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.split(path.sep).includes("testing");

const serverSources = () => filesUnder("server/src", isServerSource);

/** Files the server reads beside its code (the demo's sample documents): copied into server/dist as they are. */
const serverAssets = () => filesUnder("server/src/demo/samples");

const parts = {
  server: {
    inputs: () => [...serverSources(), ...serverAssets(), "server/package.json", "server/scripts/build.mjs", "package-lock.json"],
    output: "server/dist",
    produces: ["server/dist/main.js"],
    build: buildServer,
  },
  client: {
    inputs: () => [
      // The typed documents under client/src/graphql/gql are made from the schema and the operations.
      ...filesUnder("client/src", (file) => !file.startsWith(path.join("client/src/graphql/gql"))),
      ...filesUnder("client/public"),
      ...filesUnder("locales"),
      "client/index.html",
      "client/vite.config.ts",
      "client/package.json",
      "schema.graphql",
      "codegen.yml",
      "package-lock.json",
    ],
    output: "client/dist",
    produces: ["client/dist/index.html"],
    build: async () => {
      await run("npx", ["graphql-codegen", "--config", "codegen.yml"]);
      await run("npm", ["run", "build", "--silent", "-w", "client", "--", "--logLevel", "warn"]);
    },
  },
  models: {
    // The lexicon depends on the analysis code it is made with (its own versions guard the format).
    inputs: () => ["server/src/models/builtin/lexicon.ts", "server/src/models/builtin/lsa.ts", "server/src/models/builtin/wordnet.ts",
      "server/src/models/builtin/text-analysis.ts", "server/src/models/builtin/english-stemmer.ts", "server/src/models/builtin/prepare-lexicon.ts"],
    output: "server/prepared-models",
    produces: [],
    after: ["server"],
    build: () => run(process.execPath, ["server/dist/models/builtin/prepare-lexicon.js"]),
  },
};

function run(command, commandArgs) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { cwd: root, stdio: "inherit" });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${commandArgs.join(" ")} exited with ${code}`))));
  });
}

/** Compiles server/src into server/dist with swc; files of an earlier build that no source produces are removed. */
async function buildServer() {
  const { transformFile } = await import("@swc/core");
  const dist = path.join(root, "server/dist");
  fs.rmSync(dist, { recursive: true, force: true });
  const sources = serverSources();
  // A few files at a time: swc works on its own threads.
  const queue = [...sources];
  const compileNext = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const relative = path.relative("server/src", file).replace(/\.ts$/, ".js");
      const target = path.join(dist, relative);
      const { code, map } = await transformFile(path.join(root, file), {
        jsc: {
          parser: { syntax: "typescript", decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: "es2022",
        },
        module: { type: "commonjs" },
        sourceMaps: true,
        outputPath: target,
        swcrc: false,
      });
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, `${code}\n//# sourceMappingURL=${path.basename(target)}.map\n`);
      fs.writeFileSync(`${target}.map`, map);
    }
  };
  await Promise.all(Array.from({ length: 8 }, compileNext));
  for (const file of serverAssets()) {
    const target = path.join(dist, path.relative("server/src", file));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(root, file), target);
  }
}

const stampOf = (part) => path.join(root, part.output, ".fingerprint");

function isFresh(part, fingerprint) {
  if (force) return false;
  try {
    return fs.readFileSync(stampOf(part), "utf8") === fingerprint && part.produces.every((file) => fs.existsSync(path.join(root, file)));
  } catch {
    return false;
  }
}

async function buildPart(name, part, fingerprint) {
  const started = performance.now();
  console.log(`[build] ${name}: building…`);
  await part.build();
  fs.mkdirSync(path.join(root, part.output), { recursive: true });
  fs.writeFileSync(stampOf(part), fingerprint);
  console.log(`[build] ${name}: built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const selected = Object.entries(parts).filter(([name]) => !only || only.split(",").includes(name));
const pending = new Map();
for (const [name, part] of selected) {
  const fingerprint = fingerprintOf(part.inputs());
  if (isFresh(part, fingerprint)) continue;
  // A part waits for the parts it is made with; the others build side by side.
  const before = (part.after ?? []).map((dependency) => pending.get(dependency)).filter(Boolean);
  pending.set(name, Promise.all(before).then(() => buildPart(name, part, fingerprint)));
}
try {
  await Promise.all(pending.values());
  if (pending.size === 0) console.log("[build] up to date");
} catch (error) {
  console.error(`[build] failed: ${error.message}`);
  process.exit(1);
}
