import { readFileSync } from "node:fs";
import { join } from "node:path";
import { messageKeysOf, specProblems, validate, withDefaults } from "../../../platform/param-spec";
import { componentText } from "../../component";
import { TOOLS_COMPONENTS } from ".";

const LOCALES = ["en", "zh", "zh-TRADITIONAL", "id", "es"];
const REQUIRED_BY_RAGFLOW: Record<string, string[]> = { Invoke: ["url"], Crawler: [], ExeSQL: ["database", "username", "host"] };

function hasKey(texts: Record<string, unknown>, key: string): boolean {
  const value = key.split(".").reduce<unknown>((node, part) => (typeof node === "object" && node !== null ? (node as Record<string, unknown>)[part] : undefined), texts);
  return typeof value === "string" && value.trim() !== "";
}

/** The message keys the components' code names: literal keys, and the names its error helpers complete. */
function keysInSource(file: string, component: string): string[] {
  const source = readFileSync(join(__dirname, file), "utf8");
  const literal = [...source.matchAll(/"(flow\.[\w.]+)"/g)].map((m) => m[1]);
  const completed = [...source.matchAll(/(?:sqlError|connectionError)\("(\w+)"/g)].map((m) => `flow.components.${component}.errors.${m[1]}`);
  const requests = [...source.matchAll(/requestError\("\w+", "(\w+)"/g)].map((m) => `flow.errors.request.${m[1]}`);
  return [...literal, ...completed, ...requests];
}

describe("the tools components", () => {
  it("declare valid params; only the fields RAGFlow requires are missing from a new node", () => {
    for (const component of TOOLS_COMPONENTS) {
      expect({ component: component.name, problems: specProblems(component.params) }).toEqual({ component: component.name, problems: [] });
      const missing = validate(component.params, withDefaults(component.params, {})).map((error) => `${error.path}:${error.code}`);
      expect({ component: component.name, missing }).toEqual({ component: component.name, missing: REQUIRED_BY_RAGFLOW[component.name].map((key) => `${key}:required`) });
    }
  });

  it("have their texts in every language", () => {
    const keys = new Set([
      ...TOOLS_COMPONENTS.flatMap((c) => [componentText.label(c.name), componentText.description(c.name), ...messageKeysOf(c.params)]),
      ...keysInSource("web.ts", ""),
      ...keysInSource("invoke.ts", "Invoke"),
      ...keysInSource("crawler.ts", "Crawler"),
      ...keysInSource("exe-sql.ts", "ExeSQL"),
    ]);
    expect(keys.size).toBeGreaterThan(40);
    for (const locale of LOCALES) {
      const texts = JSON.parse(readFileSync(join(__dirname, "../../../../../locales", `${locale}.json`), "utf8"));
      expect({ locale, missing: [...keys].filter((key) => !hasKey(texts, key)) }).toEqual({ locale, missing: [] });
    }
  });
});
