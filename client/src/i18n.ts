import i18n, { type BackendModule, type ReadCallback, type ResourceKey } from "i18next";
import LanguageDetector from "i18next-browser-languagedetector";
import { initReactI18next } from "react-i18next";
import { DEFAULT_LANGUAGE, INTL_LOCALES, isLanguage, LANGUAGES, toInterfaceLanguage, type Language } from "./languages";

const LANGUAGE_STORAGE_KEY = "lng";

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
