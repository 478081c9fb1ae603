import type { TFunction } from "i18next";

/** A message key of the locales with its parameters, as the server stores parse-log lines and failure reasons. */
interface Message {
  messageKey: string;
  params: Record<string, unknown>;
}

function isMessage(value: unknown): value is Message {
  return typeof value === "object" && value !== null && typeof (value as Message).messageKey === "string" && typeof (value as Message).params === "object";
}

/** A message in the reader's language; a parameter that is itself a message (a failure's reason) is said first. */
export function say(t: TFunction, message: Message): string {
  const params = Object.fromEntries(Object.entries(message.params).map(([name, value]) => [name, isMessage(value) ? say(t, value) : value]));
  return t(message.messageKey, params);
}

export interface LogLine {
  /** "HH:MM:SS", or "" for a line without a stamp. */
  at: string;
  text: string;
}

/**
 * The parse log in the reader's language. Lines written before the server kept them as message keys exist only in
 * the English text (`progressMsg`) and are shown as they were written: a log that began before an upgrade has its
 * first lines as text and its last ones (one per entry of `progressLog`) as messages.
 */
export function logLines(t: TFunction, document: { progressMsg: string; progressLog: (Message & { at: string })[] }): LogLine[] {
  const written = document.progressMsg.split("\n").filter((line) => line.trim());
  const before = written.slice(0, Math.max(0, written.length - document.progressLog.length)).map((line) => {
    const stamped = /^(\d{2}:\d{2}:\d{2})\s+(.*)$/.exec(line);
    return stamped ? { at: stamped[1], text: stamped[2] } : { at: "", text: line };
  });
  return [...before, ...document.progressLog.map((line) => ({ at: line.at, text: say(t, line) }))];
}

/** The log as one text to show whole, each line with its stamp as RAGFlow shows it. */
export function logText(lines: LogLine[]): string {
  return lines.map((line) => (line.at ? `${line.at} ${line.text}` : line.text)).join("\n");
}
