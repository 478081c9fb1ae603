import { readFileSync } from "node:fs";
import { join } from "node:path";
import { messageKeysOf, specProblems } from "../../platform/param-spec";
import { providers } from "./registry";

const LOCALES = ["en", "zh", "zh-TRADITIONAL", "id", "es"];
const CREDENTIAL_TYPES = ["string", "secret", "url", "select"];

function hasKey(texts: Record<string, unknown>, key: string): boolean {
  const value = key.split(".").reduce<unknown>((node, part) => (typeof node === "object" && node !== null ? (node as Record<string, unknown>)[part] : undefined), texts);
  return typeof value === "string" && value.trim() !== "";
}

describe("provider credentials as ParamSpecs", () => {
  it("every provider declares valid credential params of the types the settings page stores as text", () => {
    for (const provider of providers) {
      expect({ provider: provider.name, problems: specProblems(provider.credentialFields) }).toEqual({ provider: provider.name, problems: [] });
      const odd = provider.credentialFields.filter((f) => !CREDENTIAL_TYPES.includes(f.type) || (f.default !== undefined && typeof f.default !== "string"));
      expect({ provider: provider.name, odd: odd.map((f) => f.key) }).toEqual({ provider: provider.name, odd: [] });
    }
  });

  it("labels and help of every credential exist in every language", () => {
    const keys = new Set(providers.flatMap((p) => messageKeysOf(p.credentialFields)));
    for (const locale of LOCALES) {
      const texts = JSON.parse(readFileSync(join(__dirname, "../../../../locales", `${locale}.json`), "utf8"));
      expect({ locale, missing: [...keys].filter((key) => !hasKey(texts, key)) }).toEqual({ locale, missing: [] });
    }
  });
});
