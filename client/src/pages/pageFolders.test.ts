import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@jest/globals";

/**
 * Each page folder (pages/chat, pages/knowledge, …) is one feature: it may use the shared folders (components, hooks,
 * documents, …) but never another page's files, and shared code never reaches into a page. A widget two features
 * need moves to components/ (or hooks/), where both can find it.
 */

const SRC = path.resolve(__dirname, "..");
const PAGES = path.join(SRC, "pages");

function sourceFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const child = path.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === "gql" ? [] : sourceFiles(child);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [child] : [];
  });
}

/** The files a source file imports by a relative path, static or lazy, resolved to absolute paths. */
function relativeImportsOf(file: string): string[] {
  const source = fs.readFileSync(file, "utf8");
  const specifiers = [...source.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']*)["']/g)].map((match) => match[1]);
  return specifiers.map((specifier) => path.resolve(path.dirname(file), specifier));
}

/** The page folder a path lies in ("chat" for pages/chat/assistant/X.tsx), or null outside pages/. */
function pageOf(absolute: string): string | null {
  const relative = path.relative(PAGES, absolute);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return null;
  const [first, ...rest] = relative.split(path.sep);
  return rest.length > 0 ? first : null;
}

const where = (file: string, target: string) => `${path.relative(SRC, file)} → ${path.relative(SRC, target)}`;

test("a page folder imports nothing from another page folder", () => {
  const crossings: string[] = [];
  for (const file of sourceFiles(PAGES)) {
    const page = pageOf(file);
    for (const target of relativeImportsOf(file)) {
      const targetPage = pageOf(target);
      if (targetPage !== null && targetPage !== page) crossings.push(where(file, target));
    }
  }
  expect(crossings).toEqual([]);
});

test("shared client code imports no page", () => {
  const shared = fs.readdirSync(SRC, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !["pages", "graphql"].includes(entry.name))
    .flatMap((entry) => sourceFiles(path.join(SRC, entry.name)));
  expect(shared.length).toBeGreaterThan(0);
  const reachingIn = shared.flatMap((file) => relativeImportsOf(file).filter((target) => pageOf(target) !== null).map((target) => where(file, target)));
  expect(reachingIn).toEqual([]);
});
