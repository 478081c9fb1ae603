import { readFileSync } from "node:fs";
import { join } from "node:path";
import { messageKeysOf, specProblems, validate, withDefaults } from "../../platform/param-spec";
import { PARSER_CONFIG_PARAMS } from "./parser-params";
import { chunkMethods } from "./registry";

const LOCALES = ["en", "zh", "zh-TRADITIONAL", "id", "es"];

function hasKey(texts: Record<string, unknown>, key: string): boolean {
  const value = key.split(".").reduce<unknown>((node, part) => (typeof node === "object" && node !== null ? (node as Record<string, unknown>)[part] : undefined), texts);
  return typeof value === "string" && value.trim() !== "";
}

describe("chunk-method parameters", () => {
  it("every method declares valid params: unique keys, defaults that pass their own validation", () => {
    expect(specProblems(PARSER_CONFIG_PARAMS)).toEqual([]);
    for (const method of chunkMethods) {
      expect({ method: method.name, problems: specProblems(method.params) }).toEqual({ method: method.name, problems: [] });
      expect({ method: method.name, errors: validate(method.params, withDefaults(method.params, {})) }).toEqual({ method: method.name, errors: [] });
    }
  });

  it("a method's params are settings of the parser_config schema, so that what the form edits can be saved", () => {
    const schemaKeys = new Set(PARSER_CONFIG_PARAMS.map((p) => p.key));
    for (const method of chunkMethods) for (const param of method.params) expect({ method: method.name, key: param.key, known: schemaKeys.has(param.key) }).toEqual({ method: method.name, key: param.key, known: true });
  });

  it("labels and help of every param exist in every language", () => {
    const keys = new Set([...messageKeysOf(PARSER_CONFIG_PARAMS), ...chunkMethods.flatMap((m) => messageKeysOf(m.params))]);
    for (const locale of LOCALES) {
      const texts = JSON.parse(readFileSync(join(__dirname, "../../../../locales", `${locale}.json`), "utf8"));
      expect({ locale, missing: [...keys].filter((key) => !hasKey(texts, key)) }).toEqual({ locale, missing: [] });
    }
  });
});
