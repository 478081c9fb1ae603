import fs from "node:fs";
import path from "node:path";

/**
 * The server reads the same message files as the client (`locales/*.json` at the top of the repository),
 * so an error raised here carries a key the browser translates and an English text for API clients.
 */
export const LOCALES_DIR = path.resolve(__dirname, "../../../locales");

type Messages = { [key: string]: string | Messages };
let english: Messages | undefined;

function lookup(messages: Messages, key: string): string | undefined {
  let node: string | Messages | undefined = messages;
  for (const part of key.split(".")) {
    if (typeof node !== "object") return undefined;
    node = node[part];
  }
  return typeof node === "string" ? node : undefined;
}

/** English text of a message key, with i18next-style `{{name}}` placeholders filled in. */
export function englishMessage(key: string, params: Record<string, unknown> = {}): string {
  english ??= JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, "en.json"), "utf8")) as Messages;
  const template = lookup(english, key) ?? key;
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(params[name] ?? ""));
}
