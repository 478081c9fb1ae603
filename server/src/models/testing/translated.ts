import { englishMessage, localizedMessage } from "../../platform/messages";

const LOCALES = ["en", "zh", "zh-TRADITIONAL", "id", "es"] as const;

/** Fails unless every interface language has its own text for the key, with the parameters filled in. */
export function expectTranslatedEverywhere(key: string, params: Record<string, unknown>): void {
  const english = englishMessage(key, params);
  expect(english).not.toBe(key);
  for (const locale of LOCALES) {
    const text = localizedMessage(locale, key, params);
    for (const value of Object.values(params)) expect(text).toContain(String(value));
    if (locale !== "en") expect(text).not.toBe(english);
  }
}
