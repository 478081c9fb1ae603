import fs from "node:fs";
import path from "node:path";

/**
 * The folder rules of server/src, checked. Each top-level folder sits on a floor; a file may import its own folder
 * and the floors below it, never one above nor a neighbour on its own floor (`import type` counts: a type from
 * above is a dependency on above). The composition root — the files directly in server/src (app.ts, main.ts,
 * worker.ts, services.ts, entities.ts, schema.ts, rest-routes.ts, platform-parts.ts) — wires the floors together
 * and may import anything; nothing imports it. Migrations carry frozen SQL: they import nothing of the product.
 * Tests and `testing/` may import anything.
 */
const FLOORS: string[][] = [
  ["platform"], // the ports: database, pub/sub, storage, queue, runs, configuration, errors, messages, outbound guard
  ["policies"], // who may do what: principals, roles, can/scope
  ["rest", "graphql"], // the two API toolkits, each unaware of the other
  ["auth", "bin"], // users, tenants, sessions, API tokens; the recycle bin (each domain registers how its kinds are binned)
  ["models"], // model providers and the built-in models
  ["ingestion"], // parsers, chunk methods, enrichment: from a file to chunks, writing no table
  ["knowledge"], // knowledge bases, documents, chunks, parse runs, knowledge-base tasks
  ["retrieval", "files"], // search over chunks; the file manager (its files become knowledge-base documents)
  ["chat"], // assistants, conversations, answers
  ["flows", "search"], // agent flows: the engine, its components, runs, templates; search across knowledge bases
  ["works", "demo"], // my space: everything a user made, in one list; the guided demo
  ["system"], // the echo job
  ["jobs"], // the list of job kinds
];

const SRC = __dirname;
const floorOf = new Map(FLOORS.flatMap((folders, floor) => folders.map((folder) => [folder, floor] as const)));

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** The files a file imports (static, type-only, re-exports and dynamic `import()`), resolved within server/src. */
function importsOf(file: string): string[] {
  const source = fs.readFileSync(file, "utf8");
  const specifiers = [...source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["'](\.{1,2}\/[^"']+)["']|import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g)].map((m) => m[1] ?? m[2]);
  return specifiers.flatMap((specifier) => {
    const base = path.resolve(path.dirname(file), specifier.replace(/\.js$/, ""));
    const candidates = [`${base}.ts`, path.join(base, "index.ts")];
    const found = candidates.find((candidate) => fs.existsSync(candidate));
    return found ? [found] : [];
  });
}

const topFolder = (file: string): string | null => {
  const parts = path.relative(SRC, file).split(path.sep);
  return parts.length > 1 ? parts[0] : null;
};

const relative = (file: string) => path.relative(SRC, file);
// Test support (any `testing/` folder) is left out with the tests.
const productFiles = sourceFiles(SRC).filter((file) => !relative(file).split(path.sep).includes("testing"));
const edges = productFiles.map((file) => ({ file, imports: importsOf(file) }));

describe("the folder rules of server/src", () => {
  it("give every top-level folder a floor", () => {
    const folders = fs.readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.filter((folder) => !floorOf.has(folder) && folder !== "testing" && folder !== "migrations")).toEqual([]);
  });

  it("let a folder import only its own and the floors below it, and nothing import the composition root", () => {
    const broken = edges.flatMap(({ file, imports }) => {
      const from = topFolder(file);
      if (from === null || from === "migrations") return [];
      return imports.flatMap((target) => {
        const to = topFolder(target);
        if (to === from) return [];
        const allowed = to !== null && to !== "migrations" && to !== "testing" && floorOf.get(to)! < floorOf.get(from)!;
        return allowed ? [] : [`${relative(file)} → ${relative(target)}`];
      });
    });
    expect(broken).toEqual([]);
  });

  it("keep migrations frozen: they import nothing of the product but each other", () => {
    const broken = edges
      .filter(({ file }) => topFolder(file) === "migrations")
      .flatMap(({ file, imports }) => imports.filter((target) => topFolder(target) !== "migrations").map((target) => `${relative(file)} → ${relative(target)}`));
    expect(broken).toEqual([]);
  });

  it("have no circle of imports between files", () => {
    const graph = new Map(edges.map(({ file, imports }) => [file, imports]));
    const circles: string[][] = [];
    // Tarjan's strongly connected components: any component of more than one file is a circle.
    let counter = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const visit = (file: string): void => {
      index.set(file, counter);
      low.set(file, counter++);
      stack.push(file);
      onStack.add(file);
      for (const next of graph.get(file) ?? []) {
        if (!graph.has(next)) continue;
        if (!index.has(next)) {
          visit(next);
          low.set(file, Math.min(low.get(file)!, low.get(next)!));
        } else if (onStack.has(next)) {
          low.set(file, Math.min(low.get(file)!, index.get(next)!));
        }
      }
      if (low.get(file) !== index.get(file)) return;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(relative(member));
      } while (member !== file);
      if (component.length > 1) circles.push(component.sort());
    };
    for (const file of graph.keys()) if (!index.has(file)) visit(file);
    expect(circles).toEqual([]);
  });
});
