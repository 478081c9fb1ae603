import { pptxParser } from "../../parsers/pptx";
import type { Img2TxtModel } from "../../../models/model-types";
import { PreviewKind, type PreviewSlide } from "../preview";
import { PREVIEW_LIMITS } from "../limits";
import { cut, type PreviewMaker } from "../maker";

/** No picture is read for a preview: its text is what the parser needs OCR for. */
const noOcr: Img2TxtModel = { describe: () => Promise.resolve({ text: "" }) };

/** Presentations as the text of each slide (the pptx parser's reading: title, text, tables, speaker notes). */
export const slidesPreview: PreviewMaker = {
  name: "slides",
  extensions: ["pptx"],
  async make(bytes, fileName) {
    const parsed = await pptxParser.parse(bytes, {
      fileName,
      layoutRecognize: false,
      language: "English",
      ocr: noOcr,
      signal: new AbortController().signal,
      progress: () => undefined,
    });
    const slides: PreviewSlide[] = [];
    const lines: string[][] = [];
    for (const block of parsed.blocks) {
      if (block.kind === "pageBreak") {
        slides.push({ number: block.page, title: block.title ?? null, text: "" });
        lines.push([]);
      } else if (slides.length > 0) {
        if (block.kind === "table") lines.at(-1)!.push(...[block.header, ...block.rows].filter((row) => row.length > 0).map((row) => row.join(" | ")));
        else if (block.kind !== "image" && block.text !== slides.at(-1)!.title) lines.at(-1)!.push(block.text);
      }
    }
    let budget = PREVIEW_LIMITS.textCharacters;
    let truncated = slides.length > PREVIEW_LIMITS.slides;
    const kept = slides.slice(0, PREVIEW_LIMITS.slides).flatMap((slide, index) => {
      if (budget <= 0) {
        truncated = true;
        return [];
      }
      const text = cut(lines[index].join("\n"), budget);
      budget -= text.text.length;
      truncated ||= text.truncated;
      return [{ ...slide, text: text.text }];
    });
    return { kind: PreviewKind.slides, fileName, slides: kept, truncated };
  },
};
