import { parse } from "csv-parse/sync";
import type { FileParser } from "../types";
import { ParseError } from "../types";
import { decodeText } from "./plain-text";
import { sheetTable } from "./spreadsheet-table";

const DELIMITERS = [",", ";", "\t"];

function countOutsideQuotes(line: string, delimiter: string): number {
  let count = 0;
  let quoted = false;
  for (const character of line) {
    if (character === '"') quoted = !quoted;
    else if (character === delimiter && !quoted) count += 1;
  }
  return count;
}

/** The delimiter that splits every one of the first lines, the most times; a comma when none does. */
export function detectDelimiter(text: string): string {
  const lines = text.split(/\r?\n/).filter((line) => line.trim()).slice(0, 20);
  let best = { delimiter: ",", score: 0 };
  for (const delimiter of DELIMITERS) {
    const score = Math.min(...lines.map((line) => countOutsideQuotes(line, delimiter)));
    if (score > best.score) best = { delimiter, score };
  }
  return best.delimiter;
}

export const csvParser: FileParser = {
  name: "csv",
  extensions: ["csv"],
  async parse(data) {
    const text = decodeText(data);
    let rows: string[][];
    try {
      rows = parse(text, { delimiter: detectDelimiter(text), relax_column_count: true, relax_quotes: true, skip_empty_lines: true });
    } catch (error) {
      throw ParseError.because("errors.parsing.csvUnreadable", { reason: (error as Error).message });
    }
    const table = sheetTable(rows);
    return { blocks: table ? [table] : [], notes: [] };
  },
};
