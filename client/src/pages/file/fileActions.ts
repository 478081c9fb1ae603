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

export const isFolder = (file: Pick<FileRowFragment, "kind">) => file.kind === "folder";
