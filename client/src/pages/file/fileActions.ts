import type { FileRowFragment } from "../../graphql/gql/graphql";

/** The server's four permissions (`can`), by what they let a user do in the file manager. */
export const FILE_ACTION = {
  download: "read",
  preview: "read",
  link: "use",
  rename: "manage",
  move: "manage",
  delete: "delete",
  /** Upload, import or make a folder inside a folder. */
  addInto: "manage",
} as const;

type Can = FileRowFragment["can"];

/** The permissions granted in a `can` answer, as the names `filePermissionMap` keeps. */
export function grantedBy(can: Can): string[] {
  return (["read", "use", "manage", "delete"] as const).filter((permission) => can[permission]);
}

/**
 * What a row offers: the server's `can`, except that a read-only (`.knowledgebase/`) entry offers only reading, as the
 * schema describes it ("no rename, move, delete, link or upload"), whatever the permissions around it.
 */
export function offeredBy(file: Pick<FileRowFragment, "can" | "readOnly">): string[] {
  const granted = grantedBy(file.can);
  return file.readOnly ? granted.filter((permission) => permission === "read") : granted;
}

export const isFolder = (file: Pick<FileRowFragment, "kind">) => file.kind === "folder";
