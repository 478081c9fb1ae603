/**
 * RAGFlow's upload rule (api/utils/file_utils.py `filename_type`): the extension decides the document type, and a
 * file whose extension is in none of these lists is refused with "This type of file has not been supported yet!".
 */
export type DocumentType = "pdf" | "doc" | "visual" | "aural";

const EXTENSIONS: Record<DocumentType, string[]> = {
  pdf: ["pdf"],
  doc: [
    "msg", "eml", "doc", "docx", "ppt", "pptx", "yml", "xml", "htm", "json", "jsonl", "ldjson", "csv", "txt", "ini", "xls", "xlsx",
    "wps", "rtf", "hlp", "pages", "numbers", "key", "md", "mdx", "py", "js", "java", "c", "cpp", "h", "php", "go", "ts", "sh", "cs",
    "kt", "html", "sql",
  ],
  aural: ["wav", "flac", "ape", "alac", "wavpack", "wv", "mp3", "aac", "ogg", "vorbis", "opus"],
  visual: [
    "jpg", "jpeg", "png", "tif", "gif", "pcx", "tga", "exif", "fpx", "svg", "psd", "cdr", "pcd", "dxf", "ufo", "eps", "ai", "raw", "webp",
    "avif", "apng", "icon", "ico", "mpg", "mpeg", "avi", "rm", "rmvb", "mov", "wmv", "asf", "dat", "asx", "wvx", "mpe", "mpa", "mp4", "mkv",
  ],
};

const TYPE_OF_EXTENSION = new Map<string, DocumentType>(
  (Object.entries(EXTENSIONS) as [DocumentType, string[]][]).flatMap(([type, extensions]) => extensions.map((extension) => [extension, type] as const)),
);

export const UNSUPPORTED_FILE_TYPE = "This type of file has not been supported yet!";

/** The lower-case extension without its dot; "" when the name has none. */
export function fileExtension(fileName: string): string {
  const base = fileName.slice(Math.max(fileName.lastIndexOf("/"), fileName.lastIndexOf("\\")) + 1);
  const dot = base.lastIndexOf(".");
  return dot >= 0 ? base.slice(dot + 1).toLowerCase() : "";
}

/** The document type of an upload, or null when it is refused. */
export function documentTypeOf(fileName: string): DocumentType | null {
  return TYPE_OF_EXTENSION.get(fileExtension(fileName)) ?? null;
}
