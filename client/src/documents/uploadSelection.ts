import { MAX_FILE_BYTES, MAX_FILES_PER_UPLOAD } from "./documentTransfer";

/** What the upload lists need of a picked file; `webkitRelativePath` is set when a whole folder was picked. */
export type PickedFile = Pick<File, "name" | "size"> & { webkitRelativePath?: string };

/** A file picked twice (same place in the picked folder, or same name, and same size) is listed once. */
export const fileKey = (file: PickedFile) => `${file.webkitRelativePath || file.name}:${file.size}`;

export function withAdded<F extends PickedFile>(files: F[], added: F[]): F[] {
  const known = new Set(files.map(fileKey));
  return [...files, ...added.filter((file) => !known.has(fileKey(file)))];
}

/** §9's limits, checked before anything is sent: each file up to 10 MB, at most 128 files at once. */
export function uploadLimitsOf<F extends PickedFile>(files: F[]) {
  const tooLarge = files.filter((file) => file.size > MAX_FILE_BYTES);
  const tooMany = files.length > MAX_FILES_PER_UPLOAD;
  return { tooLarge, tooMany, blocked: tooLarge.length > 0 || tooMany || files.length === 0 };
}
