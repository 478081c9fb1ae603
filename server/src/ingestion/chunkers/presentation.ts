import type { Block, ChunkDraft, ChunkMethod, ImageBlock } from "../types";
import { blockText, finishChunks, positionsOf } from "./blocks";
import { BASE_PARSER_DEFAULTS, ENRICHMENT_OFF, ENRICHMENT_PARAMS, RAPTOR_SETTINGS } from "./parser-params";

/**
 * "Presentation": one chunk per slide — slides are delimited by the parser's page breaks (pptx), or are
 * the pages of a PDF — titled with the slide's title and keeping its page, boxes and picture.
 */

interface Slide {
  page?: number;
  title?: string;
  blocks: Block[];
}

function slidesOf(blocks: Block[]): Slide[] {
  const slides: Slide[] = [];
  const byBreaks = blocks.some((b) => b.kind === "pageBreak");
  for (const block of blocks) {
    if (block.kind === "pageBreak") slides.push({ page: block.page, title: block.title?.trim() || undefined, blocks: [] });
    else {
      const last = slides[slides.length - 1];
      const newPage = !byBreaks && block.page !== undefined && last?.page !== block.page;
      if (!last || newPage) slides.push({ page: block.page, blocks: [block] });
      else last.blocks.push(block);
    }
  }
  return slides;
}

export const presentationMethod: ChunkMethod = {
  name: "presentation",
  fileTypes: ["pptx", "pdf"],
  params: [...ENRICHMENT_PARAMS, RAPTOR_SETTINGS],
  defaults: { ...BASE_PARSER_DEFAULTS, ...ENRICHMENT_OFF },
  async chunk(document) {
    const drafts: ChunkDraft[] = [];
    for (const slide of slidesOf(document.blocks)) {
      const firstLine = slide.blocks.map(blockText).find((t) => t !== "")?.split("\n")[0];
      const heading = slide.blocks.find((b) => b.kind === "heading");
      const title = slide.title ?? (heading?.kind === "heading" ? heading.text.trim() : firstLine);
      const body = slide.blocks.map(blockText).filter((t) => t !== "");
      const text = slide.title && !body.some((t) => t.startsWith(slide.title!)) ? [slide.title, ...body] : body;
      const picture = slide.blocks.find((b): b is ImageBlock => b.kind === "image");
      drafts.push({ text: text.join("\n"), title, positions: positionsOf(slide.blocks), image: picture?.image });
    }
    // A slide with a title but nothing else still says something; one with no text at all is dropped.
    return { chunks: finishChunks(drafts) };
  },
};
