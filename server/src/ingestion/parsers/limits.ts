/**
 * What a file may cost to read, checked inside the parse process before the work is done, so that a hostile
 * file fails with a reason that names the limit instead of running into the process's memory or time limit.
 * They are far above what a real document of the 10 MB upload limit needs.
 */
export const PARSE_LIMITS = {
  /** Bytes a zip container (docx, xlsx, pptx) may expand to: a 10 MB workbook of plain XML unpacks to ~150 MB. */
  expandedBytes: 256 * 1024 * 1024,
  /** Parts of a zip container: a real document has tens to a few thousand. */
  zipEntries: 10_000,
  /** Pixels of one picture before it is decoded for OCR: 50 million is a 600 dpi scan of an A2 sheet. */
  imagePixels: 50_000_000,
  /** Pages of a PDF that are read; the rest is noted in the log. */
  pdfPages: 5_000,
  /** Characters of text one file may yield: chunking, embedding and indexing more would hold the server for minutes. */
  textCharacters: 32_000_000,
} as const;

export const MEGABYTE = 1024 * 1024;
