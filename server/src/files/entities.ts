import { FileImportRow } from "./file-import.entity";
import { FileLink } from "./file-link.entity";
import { FileNode } from "./file.entity";

/** The file manager's tables (migrations/1764490000000-files.ts). */
export const FILE_ENTITIES = [FileNode, FileLink, FileImportRow];
