import type { TableBlock } from "../types";

/** A sheet as one table: empty rows and trailing empty columns dropped, the first non-empty row as its header. */
export function sheetTable(cells: string[][], caption?: string, page?: number): TableBlock | null {
  const rows = cells.map((row) => row.map((cell) => cell.trim())).filter((row) => row.some((cell) => cell !== ""));
  if (rows.length === 0) return null;
  // a reduce, not Math.max(...): spreading 400,000 rows overflows the stack
  const width = rows.reduce((widest, row) => Math.max(widest, row.findLastIndex((cell) => cell !== "") + 1), 0);
  const [header, ...body] = rows.map((row) => Array.from({ length: width }, (_, column) => row[column] ?? ""));
  return { kind: "table", caption, page, header, rows: body };
}

/** Dates as ISO 8601: the day alone when the cell holds no time of day. */
export function isoDate(date: Date): string {
  const iso = date.toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso.replace(".000Z", "Z");
}
