import { fileExtension } from "../file-types";
import type { FileParser, ParagraphBlock } from "../types";
import { ParseError } from "../types";
import { decodeText } from "./plain-text";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function scalar(value: Json): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

const isScalar = (value: Json) => value === null || typeof value !== "object";

/** `key.path: value` lines; an array of scalars stays on one line. */
function lines(value: Json, path: string, into: string[]): string[] {
  const label = (text: string) => (path ? `${path}: ${text}` : text);
  if (Array.isArray(value)) {
    if (value.length === 0) into.push(label("[]"));
    else if (value.every(isScalar)) into.push(label(value.map(scalar).join(", ")));
    else value.forEach((item, index) => lines(item, `${path}[${index}]`, into));
  } else if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) into.push(label("{}"));
    for (const [key, item] of entries) lines(item, path ? `${path}.${key}` : key, into);
  } else into.push(label(scalar(value)));
  return into;
}

/** A top-level array gives a paragraph per item; an object, one per nested key, with its plain keys gathered. */
function paragraphs(document: Json): string[] {
  if (Array.isArray(document) && !document.every(isScalar)) return document.map((item) => lines(item, "", []).join("\n"));
  if (document === null || typeof document !== "object" || Array.isArray(document)) return [lines(document, "", []).join("\n")];
  const result: string[] = [];
  let plain: string[] = [];
  for (const [key, value] of Object.entries(document)) {
    if (isScalar(value)) plain.push(...lines(value, key, []));
    else {
      if (plain.length) result.push(plain.join("\n"));
      plain = [];
      result.push(lines(value, key, []).join("\n"));
    }
  }
  if (plain.length) result.push(plain.join("\n"));
  return result;
}

/** `line`: the 1-based line of a JSON Lines file, none for a whole JSON file. */
function parseJson(text: string, line?: number): Json {
  try {
    return JSON.parse(text) as Json;
  } catch (error) {
    const reason = (error as Error).message;
    throw line === undefined ? ParseError.because("errors.parsing.jsonInvalid", { reason }) : ParseError.because("errors.parsing.jsonLineInvalid", { line, reason });
  }
}

/** JSON as readable text; JSON Lines (jsonl, ldjson) with a paragraph per line. */
export const jsonParser: FileParser = {
  name: "json",
  extensions: ["json", "jsonl", "ldjson"],
  async parse(data, context) {
    const text = decodeText(data);
    const documents =
      fileExtension(context.fileName) === "json"
        ? paragraphs(parseJson(text))
        : text.split(/\r?\n/).flatMap((line, index) => (line.trim() ? [lines(parseJson(line, index + 1), "", []).join("\n")] : []));
    const blocks: ParagraphBlock[] = documents.filter((paragraph) => paragraph.trim()).map((paragraph) => ({ kind: "paragraph", text: paragraph }));
    return { blocks, notes: [] };
  },
};
