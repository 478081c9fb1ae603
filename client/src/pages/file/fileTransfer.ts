import { postForm } from "../../documents/documentTransfer";
import { fileRoutes } from "../../documents/fileRoutes";
import { uploadPathOf } from "./folderUpload";
import type { PickedFile } from "../../documents/uploadSelection";

/** Uploads files into a folder (the root when `folderId` is null), reporting the share of the body sent. */
export function uploadFiles(folderId: string | null, files: (File & PickedFile)[], onProgress: (fraction: number) => void): Promise<unknown> {
  const body = new FormData();
  // The server reads the destination before the files.
  if (folderId) body.append("parentId", folderId);
  for (const file of files) body.append("file", file, uploadPathOf(file));
  return postForm(fileRoutes.upload, body, onProgress);
}
