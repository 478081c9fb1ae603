import { localizedMessage, type Locale } from "../platform/messages";

/**
 * What a parse tells its reader, as a message key of `locales/` with its parameters, so that the client says it
 * in the reader's language. A parameter may itself be a message (a failure's reason inside "[ERROR] {{reason}}"):
 * it is said first, in the same language.
 */
export interface LogMessage {
  messageKey: string;
  params: Record<string, unknown>;
}

export function logMessage(messageKey: string, params: Record<string, unknown> = {}): LogMessage {
  return { messageKey, params };
}

export function isLogMessage(value: unknown): value is LogMessage {
  return typeof value === "object" && value !== null && typeof (value as LogMessage).messageKey === "string" && typeof (value as LogMessage).params === "object";
}

/** The text of a message in one interface language, its message parameters said first (as the client's `say` does). */
export function localizedText(locale: Locale, message: LogMessage): string {
  const params = Object.fromEntries(Object.entries(message.params).map(([name, value]) => [name, isLogMessage(value) ? localizedText(locale, value) : value]));
  return localizedMessage(locale, message.messageKey, params);
}

/** The English text of a message: what the log text and API clients read. */
export function englishText(message: LogMessage): string {
  return localizedText("en", message);
}

/** One line of a log: when ("HH:MM:SS", UTC, as RAGFlow stamps its lines) and what. */
export interface ParseLogEntry extends LogMessage {
  at: string;
}

/**
 * A document's parse log or a knowledge-base task's log (RAPTOR, GraphRAG), kept twice: `progressMsg` is the English
 * text that RAGFlow's clients read (`progress_msg` of the REST API, which must say "Task done"), `progressLog` the same
 * lines as messages for the client to translate. Logs written before `progressLog` existed have only the text, which
 * the client then shows as it is.
 */
export interface ParseLog {
  progressMsg: string;
  progressLog: ParseLogEntry[];
}

/** Adds a line to both forms; a message is one line of the text (a model's multi-line error included), so that they stay aligned. */
export function appendLogLine(log: ParseLog, message: LogMessage, now = new Date()): ParseLog {
  return {
    progressMsg: appendLog(log.progressMsg, englishText(message).replace(/\s*\n\s*/g, " "), now),
    progressLog: [...log.progressLog, { at: now.toISOString().slice(11, 19), ...message }],
  };
}

/** A progress log line: "HH:MM:SS message", as RAGFlow shows it. */
function appendLog(log: string, message: string, at = new Date()): string {
  const line = `${at.toISOString().slice(11, 19)} ${message}`;
  return log ? `${log}\n${line}` : line;
}
