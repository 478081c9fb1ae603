import { PreviewKind } from "../preview";
import type { PreviewMaker } from "../maker";

/** Pictures a browser draws, shown by the client from the file's bytes (an <img> runs no script, even of an SVG). */
export const imagePreview: PreviewMaker = {
  name: "image",
  extensions: ["jpg", "jpeg", "png", "gif", "webp", "bmp", "svg", "ico", "avif", "apng"],
  async make(_bytes, fileName) {
    return { kind: PreviewKind.image, fileName, truncated: false };
  },
};
