import type { FilePreviewFragment } from "../../graphql/gql/graphql";

/** The content type a browser needs to draw the bytes of a PDF or a picture from a blob (stored bytes carry none it can trust). */
export function blobTypeOf(fileName: string): string | undefined {
  const extension = fileName.slice(fileName.lastIndexOf(".") + 1).toLowerCase();
  const types: Record<string, string> = {
    pdf: "application/pdf", svg: "image/svg+xml", png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp",
    bmp: "image/bmp", ico: "image/x-icon", avif: "image/avif", apng: "image/apng",
  };
  return types[extension];
}

/** "1\n2\n…" for the gutter beside a text of that many lines (a final line break starts no line). */
export function lineNumbers(text: string): string {
  const lines = text === "" ? 1 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  return Array.from({ length: lines }, (_, index) => index + 1).join("\n");
}

type Sheet = NonNullable<FilePreviewFragment["sheets"]>[number];

/** What a cut sheet leaves out, for its note; null when it is whole. */
export function sheetCut(sheet: Sheet): { rows: number; totalRows: number; columns: number; totalColumns: number } | null {
  if (!sheet.truncated) return null;
  return { rows: sheet.rows.length, totalRows: sheet.totalRows, columns: sheet.rows[0]?.length ?? 0, totalColumns: sheet.totalColumns };
}
