import i18n, { type BackendModule, type ReadCallback, type ResourceKey } from "i18next";
import LanguageDetector from "i18next-browser-languagedetector";
import { initReactI18next } from "react-i18next";

export const LANGUAGES = ["en", "zh", "zh-TRADITIONAL", "id", "es"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";
const LANGUAGE_STORAGE_KEY = "lng";

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

export function currentLanguage(): Language {
  const language = i18n.resolvedLanguage ?? i18n.language;
  return isLanguage(language) ? language : DEFAULT_LANGUAGE;
}

const messageFiles = import.meta.glob<{ default: ResourceKey }>("../../locales/*.json");

/** Each language's messages are their own chunk, fetched when that language is first needed. */
const lazyLocales: BackendModule = {
  type: "backend",
  init() {},
  read(language: string, _namespace: string, callback: ReadCallback) {
    const load = messageFiles[`../../locales/${language}.json`];
    if (!load) {
      callback(new Error(`No messages for language "${language}"`), false);
      return;
    }
    // i18next retries a failed read when the error's second argument says it may succeed later.
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error.message : String(error), true),
    );
  },
};

export const i18nReady = i18n
  .use(lazyLocales)
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    supportedLngs: [...LANGUAGES],
    fallbackLng: DEFAULT_LANGUAGE,
    load: "currentOnly",
    ns: ["translation"],
    defaultNS: "translation",
    // §9: up to 5 attempts starting at 350 ms (i18next doubles the wait), at most 10 reads in parallel.
    maxRetries: 5,
    retryTimeout: 350,
    maxParallelReads: 10,
    interpolation: { escapeValue: false },
    detection: {
      order: ["querystring", "cookie", "localStorage", "sessionStorage", "navigator", "htmlTag"],
      lookupQuerystring: LANGUAGE_STORAGE_KEY,
      lookupCookie: LANGUAGE_STORAGE_KEY,
      lookupLocalStorage: LANGUAGE_STORAGE_KEY,
      lookupSessionStorage: LANGUAGE_STORAGE_KEY,
      caches: ["localStorage"],
      convertDetectedLanguage: toInterfaceLanguage,
    },
    react: { useSuspense: true },
  });

i18n.on("languageChanged", (language) => {
  document.documentElement.lang = isLanguage(language) ? INTL_LOCALES[language] : language;
});

export default i18n;
