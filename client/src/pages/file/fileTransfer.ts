import { postForm } from "../../documents/documentTransfer";
import { uploadPathOf } from "./folderUpload";
import type { PickedFile } from "../../documents/uploadSelection";

/**
 * The file manager's HTTP routes (server/src/files/README.md): uploads are multipart, because GraphQL carries no
 * file bodies; each part's file name is the file's path inside the picked folder, from which the server makes folders.
 */
export const fileRoutes = {
  upload: "/v1/files/upload",
  /** `inline` asks for passive types (PDF, images, text) with their own content type, for a preview. */
  download: (fileId: string, inline = false) => `/v1/files/${encodeURIComponent(fileId)}/download${inline ? "?inline=1" : ""}`,
};

/** Uploads files into a folder (the root when `folderId` is null), reporting the share of the body sent. */
export function uploadFiles(folderId: string | null, files: (File & PickedFile)[], onProgress: (fraction: number) => void): Promise<unknown> {
  const body = new FormData();
  // The server reads the destination before the files.
  if (folderId) body.append("parentId", folderId);
  for (const file of files) body.append("file", file, uploadPathOf(file));
  return postForm(fileRoutes.upload, body, onProgress);
}
