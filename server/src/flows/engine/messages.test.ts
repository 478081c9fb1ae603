import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { LANGUAGES } from "../../platform/messages";

/** Every `flow.*` message key the engine, the importer and the core components name exists in every language. */
const SOURCES = [
  ...readdirSync(__dirname).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts")).map((f) => join(__dirname, f)),
  join(__dirname, "../dsl-format.ts"),
  ...readdirSync(join(__dirname, "../components/core")).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts")).map((f) => join(__dirname, "../components/core", f)),
];

const hasKey = (texts: Record<string, unknown>, key: string) => {
  const value = key.split(".").reduce<unknown>((node, part) => (typeof node === "object" && node !== null ? (node as Record<string, unknown>)[part] : undefined), texts);
  return typeof value === "string" && value.trim() !== "";
};

it("every flow message key of the engine exists in every language, with the same placeholders", () => {
  const keys = [...new Set(SOURCES.flatMap((file) => [...readFileSync(file, "utf8").matchAll(/"(flow\.[A-Za-z0-9_.]+[A-Za-z0-9_])"/g)].map((m) => m[1])))];
  expect(keys.length).toBeGreaterThan(40);
  const texts = Object.fromEntries(LANGUAGES.map((locale) => [locale, JSON.parse(readFileSync(join(__dirname, "../../../../locales", `${locale}.json`), "utf8"))]));
  const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
  for (const locale of LANGUAGES) {
    expect({ locale, missing: keys.filter((key) => !hasKey(texts[locale], key)) }).toEqual({ locale, missing: [] });
  }
  for (const key of keys) {
    const english = placeholders(key.split(".").reduce((node, part) => node[part], texts.en));
    for (const locale of LANGUAGES) expect({ key, locale, placeholders: placeholders(key.split(".").reduce((node, part) => node[part], texts[locale])) }).toEqual({ key, locale, placeholders: english });
  }
});
