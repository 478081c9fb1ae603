import { MEGABYTE } from "../parsers/limits";

/**
 * What one preview may hold: enough to read a file, far less than parsing it whole. A preview is made while someone
 * waits and travels to the browser in one GraphQL answer, so everything past these is cut and said to be cut.
 */
export const PREVIEW_LIMITS = {
  /** Characters of text, Markdown or code; about 300 printed pages. */
  textCharacters: 1_000_000,
  /** Characters of HTML (a DOCX, an e-mail body) before the pictures. */
  htmlCharacters: 2_000_000,
  /** Bytes of one picture inlined as a data URI; larger ones are left out. */
  imageBytes: 2 * MEGABYTE,
  /** Bytes of all inlined pictures of one file. */
  imagesBytes: 8 * MEGABYTE,
  /** Rows of one sheet (the header row included). */
  rows: 1_000,
  /** Columns of one sheet. */
  columns: 50,
  /** Characters of one cell. */
  cellCharacters: 1_000,
  /** Sheets of one workbook. */
  sheets: 20,
  /** Bytes of a CSV file that are read: the rows beyond the first thousand are only counted. */
  csvBytes: 20 * MEGABYTE,
  /** Slides of a presentation. */
  slides: 500,
} as const;
