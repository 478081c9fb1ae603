import type { Block, ChunkDraft, ChunkMethod, HeadingBlock } from "../types";
import { blockText, finishChunks, positionsOf } from "./blocks";
import { withNumberedHeadings } from "./numbering";
import { sectionChunks, sectionsOf, settingsOf } from "./sections";
import { BASE_PARSER_DEFAULTS, DOCUMENT_METHOD_PARAMS, ENRICHMENT_OFF } from "./parser-params";

/**
 * "Paper": the title, the authors and the abstract make one chunk, kept whole whatever its size (it is
 * what a question about the paper most often needs); then each section is chunked on its own, titled
 * with its name; the references stay in chunks of their own.
 */

const ABSTRACT_HEADING = /^(?:abstract|摘\s*要)\s*[:：.]?$/i;
/** "Abstract — We present…", "Abstract: …", "摘要：…" as the start of a paragraph. */
const ABSTRACT_LEAD = /^(?:abstract|摘\s*要)\s*[:：.—–-]\s*/i;
const NAMED_SECTION = /^(?:abstract|摘\s*要|references|bibliography|works cited|literature cited|acknowledge?ments?|参考文献|致\s*谢|introduction|引\s*言|conclusions?|结\s*论)\s*[:：]?$/i;

/** Section names written as plain lines ("Abstract", "References") become headings. */
function withNamedSections(blocks: Block[]): Block[] {
  return blocks.map((block): Block =>
    block.kind === "paragraph" && NAMED_SECTION.test(block.text.trim()) ? ({ ...block, kind: "heading", level: 2 } satisfies HeadingBlock) : block,
  );
}

export const paperMethod: ChunkMethod = {
  name: "paper",
  fileTypes: ["pdf", "docx", "md", "markdown", "txt", "html", "htm"],
  params: DOCUMENT_METHOD_PARAMS,
  defaults: { ...BASE_PARSER_DEFAULTS, ...ENRICHMENT_OFF },
  async chunk(document, context) {
    const settings = settingsOf(context);
    const blocks = withNamedSections(withNumberedHeadings(document.blocks));

    // The abstract: under an "Abstract" heading, or a paragraph that opens with the word.
    let abstractStart = blocks.findIndex((b) => b.kind === "heading" && ABSTRACT_HEADING.test(b.text.trim()));
    if (abstractStart < 0) abstractStart = blocks.findIndex((b) => b.kind === "paragraph" && ABSTRACT_LEAD.test(b.text.trim()));
    let bodyStart: number;
    if (abstractStart >= 0) {
      bodyStart = abstractStart + 1;
      while (bodyStart < blocks.length && blocks[bodyStart].kind !== "heading") bodyStart++;
    } else {
      // No abstract: the front matter runs to the first heading after the title.
      const titleIndex = blocks.findIndex((b) => b.kind === "heading");
      bodyStart = titleIndex === 0 ? blocks.findIndex((b, i) => i > 0 && b.kind === "heading") : Math.max(0, titleIndex);
      if (bodyStart < 0) bodyStart = blocks.length;
    }
    const front = blocks.slice(0, bodyStart);
    const firstHeading = front.find((b): b is HeadingBlock => b.kind === "heading" && !ABSTRACT_HEADING.test(b.text.trim()));
    const title = document.title?.trim() || firstHeading?.text.trim() || front.map(blockText).find((t) => t !== "");

    const drafts: ChunkDraft[] = [];
    const frontText = front.map(blockText).filter((t) => t !== "").join("\n");
    if (frontText !== "") {
      const withTitle = title && !frontText.includes(title) ? `${title}\n${frontText}` : frontText;
      drafts.push({ text: withTitle, title, positions: positionsOf(front) });
    }

    for (const section of sectionsOf(blocks.slice(bodyStart))) {
      // Every section, the references included, is chunked on its own: no chunk mixes two of them.
      const name = section.heading?.text.trim();
      drafts.push(...sectionChunks(section, settings, { wholeTables: false, prefix: name ?? "", title: name ?? title }));
    }
    return { chunks: finishChunks(drafts) };
  },
};
