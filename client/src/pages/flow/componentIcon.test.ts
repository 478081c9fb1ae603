import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@jest/globals";
import { LuPuzzle } from "react-icons/lu";
import { componentIcon } from "./componentIcon";

/** Every icon the server's components name is drawn (not the fallback puzzle piece). */
test("the editor has an icon for every component the registry describes", () => {
  const root = path.resolve(__dirname, "../../../../server/src/flows/components");
  const files = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(path.join(dir, entry.name)) : entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path.join(dir, entry.name)] : []));
  const named = files(root).flatMap((file) => [...fs.readFileSync(file, "utf8").matchAll(/\bicon: "(\w+)"/g)].map((match) => match[1]));
  expect(named.length).toBeGreaterThan(30);
  expect(named.filter((name) => componentIcon(name) === LuPuzzle)).toEqual([]);
});
