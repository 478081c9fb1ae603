import { logMessage } from "../parse-log";
import type { ChunkDraft, ChunkMethod } from "../types";
import { finishChunks, splitLines } from "./blocks";
import { BASE_PARSER_DEFAULTS } from "./parser-params";

/**
 * "Tag": RAGFlow's tag sets — each table row (content, tags) or text line "content<TAB>tag1,tag2" is a
 * chunk whose keywords are its tags; other knowledge bases use these chunks to tag their own.
 */

function tagsOf(text: string): string[] {
  return [...new Set(text.split(/[,，;；、]/).map((t) => t.trim()).filter((t) => t !== ""))];
}

export const tagMethod: ChunkMethod = {
  name: "tag",
  fileTypes: ["xlsx", "xls", "csv", "txt"],
  params: [],
  defaults: BASE_PARSER_DEFAULTS,
  async chunk(document) {
    const drafts: ChunkDraft[] = [];
    let skipped = 0;
    for (const block of splitLines(document.blocks)) {
      if (block.kind === "table") {
        const rows = block.header.length === 0 && /^(content|text|内容)$/i.test((block.rows[0]?.[0] ?? "").trim()) ? block.rows.slice(1) : block.rows;
        for (const row of rows) {
          const content = (row[0] ?? "").trim();
          const tags = tagsOf(row.slice(1).join(","));
          if (content && tags.length > 0) drafts.push({ text: content, keywords: tags, positions: block.positions });
          else skipped++;
        }
      } else if (block.kind === "paragraph") {
        const [content, ...rest] = block.text.split("\t");
        const tags = tagsOf(rest.join(","));
        if (content.trim() && tags.length > 0) drafts.push({ text: content.trim(), keywords: tags, positions: block.positions });
        else skipped++;
      }
    }
    const notes = skipped > 0 ? [logMessage("parseLog.tagRowsSkipped", { count: skipped })] : [];
    return { chunks: finishChunks(drafts), notes };
  },
};
