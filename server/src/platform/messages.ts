import fs from "node:fs";
import path from "node:path";

/** The interface languages; their message files are locales/<code>.json. */
export const LANGUAGES = ["en", "zh", "zh-TRADITIONAL", "id", "es"] as const;

export function isLanguage(code: string): boolean {
  return (LANGUAGES as readonly string[]).includes(code);
}

/**
 * The server reads the same message files as the client (`locales/*.json` at the top of the repository),
 * so an error raised here carries a key the browser translates and an English text for API clients.
 */
export const LOCALES_DIR = path.resolve(__dirname, "../../../locales");

type Messages = { [key: string]: string | Messages };
const loaded = new Map<string, Messages>();

export type Locale = (typeof LANGUAGES)[number];

function messagesOf(locale: Locale): Messages {
  let messages = loaded.get(locale);
  if (!messages) {
    messages = JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, `${locale}.json`), "utf8")) as Messages;
    loaded.set(locale, messages);
  }
  return messages;
}

function lookup(messages: Messages, key: string): string | undefined {
  let node: string | Messages | undefined = messages;
  for (const part of key.split(".")) {
    if (typeof node !== "object") return undefined;
    node = node[part];
  }
  return typeof node === "string" ? node : undefined;
}

/** The text of a message key in one interface language (English where that language lacks it), with i18next-style `{{name}}` placeholders filled in. */
export function localizedMessage(locale: Locale, key: string, params: Record<string, unknown> = {}): string {
  const template = lookup(messagesOf(locale), key) ?? lookup(messagesOf("en"), key) ?? key;
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(params[name] ?? ""));
}

/** English text of a message key: what API clients read. */
export function englishMessage(key: string, params: Record<string, unknown> = {}): string {
  return localizedMessage("en", key, params);
}
