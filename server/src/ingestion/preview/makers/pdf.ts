import { PreviewKind } from "../preview";
import { unsupported, type PreviewMaker } from "../maker";

/** PDFs are drawn by the client (pdf.js) from the file's bytes; the server only checks that they are a PDF. */
export const pdfPreview: PreviewMaker = {
  name: "pdf",
  extensions: ["pdf"],
  async make(bytes, fileName) {
    // a PDF's header may follow some junk, within its first kilobyte
    if (!bytes.subarray(0, 1024).includes("%PDF-")) return unsupported(fileName, "preview.reason.damaged", { type: "PDF" });
    return { kind: PreviewKind.pdf, fileName, truncated: false };
  },
};
