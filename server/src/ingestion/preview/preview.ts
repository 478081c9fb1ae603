/**
 * The shape of a preview, as plain data: what the preview makers return (in a parse process, where no GraphQL is
 * loaded) and what preview.type.ts publishes as the GraphQL type Preview.
 */

/** How a preview is drawn, and which of its fields are set. */
export enum PreviewKind {
  /** The client draws the file's bytes (its download URL) with pdf.js. */
  pdf = "pdf",
  /** The client shows the file's bytes (its download URL) in an <img>. */
  image = "image",
  /** `html`: sanitised HTML (DOCX), pictures inlined as data URIs. */
  html = "html",
  /** `markdown`: to be rendered by a safe Markdown renderer (no raw HTML). */
  markdown = "markdown",
  /** `sheets`: spreadsheets and CSV, capped rows and columns. */
  table = "table",
  /** `email`: headers, body and attachment names. */
  email = "email",
  /** `text` with a highlight.js `language` (null for plain text). */
  text = "text",
  /** `slides`: the text of each slide or page (presentations). */
  slides = "slides",
  /** `reason` says why this file has no preview. */
  unsupported = "unsupported",
}

export interface PreviewReason {
  messageKey: string;
  params: Record<string, unknown>;
}

export interface PreviewSheet {
  name: string;
  /** Cells as text, row by row; the first row is shown as the header. Rows are padded to the same length. */
  rows: string[][];
  /** Rows the sheet has (at least rows.length; more when it was cut). */
  totalRows: number;
  /** Columns the sheet has (at least a row's length; more when it was cut). */
  totalColumns: number;
  /** Whether rows, columns or cell text were left out. */
  truncated: boolean;
}

export interface PreviewEmail {
  from: string | null;
  to: string | null;
  cc: string | null;
  subject: string | null;
  date: string | null;
  /** Sanitised; null when the mail has only text. */
  html: string | null;
  text: string | null;
  attachments: string[];
}

export interface PreviewSlide {
  /** 1-based. */
  number: number;
  title: string | null;
  text: string;
}

/** A file rendered for reading: only the fields of its kind are set (see PreviewKind). */
export interface Preview {
  kind: PreviewKind;
  fileName: string;
  html?: string | null;
  markdown?: string | null;
  text?: string | null;
  language?: string | null;
  sheets?: PreviewSheet[] | null;
  email?: PreviewEmail | null;
  slides?: PreviewSlide[] | null;
  /** Whether the text, HTML, Markdown, sheets or slides were cut at the preview's limits. */
  truncated: boolean;
  reason?: PreviewReason | null;
}
