import type { IconType } from "react-icons";
import { LuFile, LuFileArchive, LuFileAudio, LuFileCode, LuFileImage, LuFileSpreadsheet, LuFileText, LuFileVideo, LuFolder, LuFolderLock, LuMail, LuPresentation } from "react-icons/lu";

const BY_EXTENSION: [IconType, string[]][] = [
  [LuFileText, ["pdf", "doc", "docx", "txt", "md", "markdown", "rtf", "odt", "html", "htm"]],
  [LuFileSpreadsheet, ["csv", "tsv", "xls", "xlsx", "ods"]],
  [LuPresentation, ["ppt", "pptx", "odp"]],
  [LuFileImage, ["png", "jpg", "jpeg", "gif", "webp", "svg", "bmp", "tif", "tiff"]],
  [LuFileAudio, ["mp3", "wav", "m4a", "ogg", "flac", "aac"]],
  [LuFileVideo, ["mp4", "mov", "webm", "mkv", "avi"]],
  [LuMail, ["eml", "msg"]],
  [LuFileArchive, ["zip", "tar", "gz", "7z", "rar"]],
  [LuFileCode, ["json", "js", "ts", "tsx", "py", "java", "go", "rs", "c", "cpp", "h", "sql", "yaml", "yml", "xml", "sh"]],
];

const ICONS = new Map(BY_EXTENSION.flatMap(([icon, extensions]) => extensions.map((extension) => [extension, icon] as const)));

/** The extension of a file name, lower case, without the dot ("" when it has none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

/** The icon of a row: a folder (locked when read-only), else by the file's extension. */
export function fileIconOf(name: string, folder: boolean, readOnly = false): IconType {
  if (folder) return readOnly ? LuFolderLock : LuFolder;
  return ICONS.get(extensionOf(name)) ?? LuFile;
}

/** A file's name without its extension ("report" for "report.pdf" with suffix "pdf"); the whole name when it has none. */
export function nameWithoutSuffix(name: string, suffix: string): string {
  return suffix && name.toLowerCase().endsWith(`.${suffix.toLowerCase()}`) ? name.slice(0, -(suffix.length + 1)) : name;
}
