/** The five interface languages and how other codes map onto them; free of i18next, so that pure code can use it. */
export const LANGUAGES = ["en", "zh", "zh-TRADITIONAL", "id", "es"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

export function isLanguage(value: string | undefined | null): value is Language {
  return (LANGUAGES as readonly string[]).includes(value ?? "");
}

/** Browser and user-typed codes (zh-TW, zh-Hant-HK, en-GB, in) mapped onto the five interface languages. */
export function toInterfaceLanguage(code: string): string {
  const lower = code.trim().replace(/_/g, "-").toLowerCase();
  if (lower === "zh-traditional") return "zh-TRADITIONAL";
  if (lower.startsWith("zh")) return /(^|-)(tw|hk|mo|hant)(-|$)/.test(lower) ? "zh-TRADITIONAL" : "zh";
  const primary = lower.split("-")[0];
  if (primary === "in") return "id";
  return isLanguage(primary) ? primary : code;
}

/** The BCP 47 locale Intl uses for dates and numbers in each interface language. */
export const INTL_LOCALES: Record<Language, string> = {
  en: "en-US",
  zh: "zh-CN",
  "zh-TRADITIONAL": "zh-TW",
  id: "id-ID",
  es: "es-ES",
};
