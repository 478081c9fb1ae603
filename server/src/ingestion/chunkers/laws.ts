import { logMessage } from "../parse-log";
import { countTokens } from "../../models/tokens";
import type { Block, ChunkDraft, ChunkMethod } from "../types";
import { blockText, finishChunks, HeadingPath, PATH_SEPARATOR, splitLines } from "./blocks";
import { headingLevel, withNumberedHeadings } from "./numbering";
import { flowChunks, settingsOf } from "./sections";
import { mergePieces, splitOnDelimiters } from "./token-budget";
import { BASE_PARSER_DEFAULTS, DOCUMENT_METHOD_PARAMS, ENRICHMENT_OFF } from "./parser-params";

/**
 * "Laws": the article is the unit. "Article 12", "Art. 3", "第十二条", "§ 3" start an article; parts,
 * chapters and sections ("第二章", "Chapter II", "Section 1", or the parser's headings) give the path
 * that every article chunk opens with. A long article is split by the token budget, each part opening
 * with the path and the article's number.
 */

const ARTICLE = /^(?:(第[一二三四五六七八九十百千零〇两\d]+条(?:之[一二三四五六七八九十\d]+)?)|((?:article|art\.)\s*\d+[a-z]?(?:\.\d+)?)\b|(§+\s*\d+[a-z]?(?:\.\d+)*))/i;

export function articleLabel(text: string): string | undefined {
  const match = ARTICLE.exec(text.trim());
  return match ? (match[1] ?? match[2] ?? match[3]).replace(/\s+/g, " ") : undefined;
}

/** An article, or the text under a heading before the next article (a chapter's introduction, a preamble). */
interface Unit {
  label?: string;
  path: string[];
  blocks: Block[];
}

export const lawsMethod: ChunkMethod = {
  name: "laws",
  fileTypes: ["pdf", "docx", "txt", "md", "markdown", "html", "htm"],
  params: DOCUMENT_METHOD_PARAMS,
  defaults: { ...BASE_PARSER_DEFAULTS, ...ENRICHMENT_OFF },
  async chunk(document, context) {
    const settings = settingsOf(context);
    const path = new HeadingPath();
    const units: Unit[] = [{ path: [], blocks: [] }];
    for (const block of splitLines(document.blocks)) {
      const text = block.kind === "heading" || block.kind === "paragraph" ? block.text.trim() : "";
      const label = text ? articleLabel(text) : undefined;
      const level = label ? undefined : block.kind === "heading" ? block.level : text ? headingLevel(text, { namedOnly: true }) : undefined;
      if (label) units.push({ label, path: path.path, blocks: [{ kind: "paragraph", text, page: block.page, positions: block.positions }] });
      else if (level !== undefined) {
        path.enter({ kind: "heading", level, text });
        units.push({ path: path.path, blocks: [] });
      } else units[units.length - 1].blocks.push(block);
    }

    if (!units.some((u) => u.label)) {
      return {
        chunks: finishChunks(flowChunks(withNumberedHeadings(document.blocks), settings)),
        notes: [logMessage("parseLog.noArticles")],
      };
    }

    const drafts: ChunkDraft[] = [];
    for (const unit of units) {
      const heading = unit.path.join(PATH_SEPARATOR);
      const title = [...unit.path, ...(unit.label ? [unit.label] : [])].join(PATH_SEPARATOR) || undefined;
      // Continuations repeat the article's number, so that a retrieved part still says which article it is.
      const continued = [heading, unit.label ? `${unit.label} (continued)` : ""].filter((t) => t !== "").join("\n");
      const budget = Math.max(16, settings.maxTokens - countTokens(continued) - 1);
      const pieces = unit.blocks.flatMap((block) =>
        splitOnDelimiters(blockText(block), settings.delimiters).map((piece) => ({ ...piece, positions: block.positions })),
      );
      mergePieces(pieces, budget).forEach((part, index) => {
        const prefix = index === 0 ? heading : continued;
        drafts.push({ text: prefix ? `${prefix}\n${part.text}` : part.text, positions: part.positions, title });
      });
    }
    return { chunks: finishChunks(drafts) };
  },
};
