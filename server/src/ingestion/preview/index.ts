import { fileExtension } from "../file-types";
import { ParseError } from "../types";
import { unsupported } from "./maker";
import type { Preview } from "./preview";
import { previewMakerFor } from "./registry";

export { PreviewKind, type Preview } from "./preview";

/**
 * A rendered preview of a file, chosen by its type (the file name's extension) from the registry of preview makers.
 * A file that cannot be read (damaged, not what its name says, past a limit) previews as "unsupported" with the
 * reason, never as an error. It runs in the calling process with every maker's size caps; the server calls
 * `services.previews.of` instead, which runs this in a parse process with time and memory limits and keeps the result.
 */
export async function previewOf(bytes: Buffer, fileName: string): Promise<Preview> {
  const extension = fileExtension(fileName);
  const maker = previewMakerFor(extension);
  if (!maker) return unsupported(fileName, "preview.reason.unsupportedType", { suffix: extension });
  if (bytes.length === 0) return unsupported(fileName, "preview.reason.empty");
  try {
    return await maker.make(bytes, fileName);
  } catch (error) {
    if (error instanceof ParseError) return unsupported(fileName, error.reason.messageKey, error.reason.params);
    console.error(`[preview] the ${maker.name} preview failed on ${fileName}:`, error);
    return unsupported(fileName, "preview.reason.unreadable");
  }
}
