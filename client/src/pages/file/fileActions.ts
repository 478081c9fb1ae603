/** The actions the server names in a file's `can` field. */
export const FILE_ACTION = {
  download: "download",
  rename: "rename",
  move: "move",
  delete: "delete",
  link: "link",
} as const;
