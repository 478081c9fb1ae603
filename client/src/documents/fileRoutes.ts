/**
 * The file manager's HTTP routes (server/src/files/README.md): uploads are multipart, because GraphQL carries no
 * file bodies; each part's file name is the file's path inside the picked folder, from which the server makes folders.
 */
export const fileRoutes = {
  upload: "/v1/files/upload",
  /** `inline` asks for passive types (PDF, images, text) with their own content type, for a preview. */
  download: (fileId: string, inline = false) => `/v1/files/${encodeURIComponent(fileId)}/download${inline ? "?inline=1" : ""}`,
};
