import fs from "node:fs";
import path from "node:path";
import { variablesReadByConfig } from "./testing/config-variables";

/**
 * The README's configuration table is the operator's list of what can be set: it must name every variable
 * that platform/config.ts reads, and nothing it does not. Adding a variable to config.ts without a row fails here.
 */

const readme = fs.readFileSync(path.join(__dirname, "../../README.md"), "utf8");

function variablesInReadmeTable(): string[] {
  const section = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("\n## ", readme.indexOf("## Configuration") + 1));
  return [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1]).sort();
}

describe("the README's configuration table", () => {
  it("finds the variables config.ts reads (the reading of the source still works)", () => {
    expect(variablesReadByConfig()).toEqual(expect.arrayContaining(["PORT", "HOST", "DATA_DIR", "DATABASE_URL", "S3_ACCESS_KEY", "SECRET_KEY_FILE"]));
  });

  it("lists every variable config.ts reads, and only those", () => {
    expect(variablesInReadmeTable()).toEqual(variablesReadByConfig());
  });

  it("gives each a default and what it does", () => {
    const section = readme.slice(readme.indexOf("## Configuration"));
    for (const name of variablesReadByConfig()) {
      const row = section.split("\n").find((line) => line.startsWith(`| \`${name}\` |`))!;
      const [, fallback, meaning] = row.replace(/^\| | \|$/g, "").split(" | ").map((cell) => cell.trim());
      expect({ name, fallback: fallback.length > 0, meaning: meaning.length > 10 }).toEqual({ name, fallback: true, meaning: true });
    }
  });
});
