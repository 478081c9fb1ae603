import type { PickedFile } from "../../documents/uploadSelection";

/**
 * Where a picked file goes, relative to the folder it is uploaded into: "trip/photos/a.jpg" for a file of a picked
 * folder (the browser's `webkitRelativePath`), its bare name otherwise. The server creates the folders of the path.
 */
export function uploadPathOf(file: PickedFile): string {
  const path = (file.webkitRelativePath || file.name).replace(/\\/g, "/");
  return path
    .split("/")
    .filter((segment) => segment !== "" && segment !== ".")
    .join("/");
}

/** The folders an upload creates below its destination, each once, parents before children. */
export function foldersCreatedBy(paths: string[]): string[] {
  const folders = new Set<string>();
  for (const path of paths) {
    const segments = path.split("/").slice(0, -1);
    for (let depth = 1; depth <= segments.length; depth++) folders.add(segments.slice(0, depth).join("/"));
  }
  return [...folders].sort((a, b) => a.split("/").length - b.split("/").length || a.localeCompare(b));
}
