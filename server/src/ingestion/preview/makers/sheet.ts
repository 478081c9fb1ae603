import { PREVIEW_LIMITS } from "../limits";
import type { PreviewSheet } from "../preview";

/** A sheet's first rows and columns, cells cut to a length, every row as long as the longest kept one. */
export function previewSheet(name: string, rows: string[][], totalRows: number, totalColumns: number): PreviewSheet {
  const kept = rows.slice(0, PREVIEW_LIMITS.rows).map((row) => row.slice(0, PREVIEW_LIMITS.columns).map((cell) => cell.slice(0, PREVIEW_LIMITS.cellCharacters)));
  const width = Math.max(0, ...kept.map((row) => row.length));
  const padded = kept.map((row) => (row.length < width ? [...row, ...Array<string>(width - row.length).fill("")] : row));
  const rowCount = Math.max(totalRows, rows.length);
  const columnCount = Math.max(totalColumns, width);
  return { name, rows: padded, totalRows: rowCount, totalColumns: columnCount, truncated: rowCount > padded.length || columnCount > width || rows.some((row) => row.some((cell) => cell.length > PREVIEW_LIMITS.cellCharacters)) };
}
