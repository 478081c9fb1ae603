import type { PreviewMaker } from "./maker";
import { csvPreview } from "./makers/csv";
import { docxPreview } from "./makers/docx";
import { emailPreview } from "./makers/email";
import { imagePreview } from "./makers/image";
import { markdownPreview } from "./makers/markdown";
import { pdfPreview } from "./makers/pdf";
import { slidesPreview } from "./makers/slides";
import { spreadsheetPreview } from "./makers/spreadsheet";
import { textPreview } from "./makers/text";

/**
 * Every preview maker. The types the upload rule accepts and none of these names (doc, ppt, wps, rtf, msg, pages,
 * numbers, key, tif and the other pictures a browser cannot draw, audio and video) preview as "unsupported".
 */
export const previewMakers: PreviewMaker[] = [pdfPreview, imagePreview, docxPreview, markdownPreview, csvPreview, spreadsheetPreview, emailPreview, textPreview, slidesPreview];

const MAKER_BY_EXTENSION = new Map(previewMakers.flatMap((maker) => maker.extensions.map((extension) => [extension, maker] as const)));

export function previewMakerFor(extension: string): PreviewMaker | undefined {
  return MAKER_BY_EXTENSION.get(extension);
}
