import type mammothModule from "mammoth";
import { ParseError } from "../../types";
import { checkZipContainer } from "../../parsers/zip-limits";
import { PreviewKind } from "../preview";
import { PREVIEW_LIMITS } from "../limits";
import { cutHtml } from "../cut-html";
import { sanitizeHtml } from "../sanitize-html";
import type { PreviewMaker } from "../maker";

/** Word documents as formatted HTML (mammoth: headings, lists, tables, links), pictures inlined up to a size, sanitised. */
export const docxPreview: PreviewMaker = {
  name: "docx",
  extensions: ["docx"],
  async make(bytes, fileName) {
    // a zip bomb fails here, before mammoth unpacks anything
    await checkZipContainer(bytes);
    // Loaded when a document needs it: the library takes a while to load.
    const mammoth = require("mammoth") as typeof mammothModule;
    let inlined = 0;
    const convertImage = mammoth.images.imgElement(async (image) => {
      const data = await image.read("base64");
      const size = (data.length * 3) / 4;
      // a picture too large (or one too many) is left out; its alt text stays
      if (size > PREVIEW_LIMITS.imageBytes || inlined + size > PREVIEW_LIMITS.imagesBytes) return { src: "" };
      inlined += size;
      return { src: `data:${image.contentType};base64,${data}` };
    });
    let converted: string;
    try {
      converted = (await mammoth.convertToHtml({ buffer: bytes }, { convertImage })).value;
    } catch {
      throw ParseError.because("errors.parsing.docxInvalid");
    }
    const { html, truncated } = cutHtml(converted, PREVIEW_LIMITS.htmlCharacters + inlined * 1.4);
    return { kind: PreviewKind.html, fileName, html: sanitizeHtml(html), truncated };
  },
};
