import type { Block, ChunkDraft, ChunkMethod } from "../types";
import { blockText, finishChunks, positionsOf, splitLines } from "./blocks";
import { flowChunks, settingsOf } from "./sections";
import { mergePieces, splitOnDelimiters, type Piece } from "./token-budget";
import { BASE_PARSER_DEFAULTS, ENRICHMENT_PARAMS } from "./parser-params";

/**
 * "Email": the header (From, To, Cc, Subject, Date) opens the first chunk and the body follows, merged up
 * to the token budget; every attachment is chunked as General text, its chunks titled with its file name.
 */

const HEADER_LINE = /^(from|to|cc|bcc|subject|date|sent|reply-to|发件人|收件人|抄送|主题|日期|時間|时间)\s*[:：]\s*\S/i;

export const emailMethod: ChunkMethod = {
  name: "email",
  fileTypes: ["eml"],
  params: ENRICHMENT_PARAMS,
  defaults: BASE_PARSER_DEFAULTS,
  async chunk(document, context) {
    const settings = settingsOf(context);
    const lines = splitLines(document.blocks);
    // The header: the leading lines that are "Name: value" fields.
    let headerEnd = 0;
    while (headerEnd < lines.length && lines[headerEnd].kind === "paragraph" && HEADER_LINE.test(blockText(lines[headerEnd]))) headerEnd++;
    const headerBlocks: Block[] = lines.slice(0, headerEnd);
    const header = headerBlocks.map(blockText);
    const subject = document.title?.trim() || header.find((l) => /^(subject|主题)\s*[:：]/i.test(l))?.replace(/^[^:：]+[:：]\s*/, "");
    if (subject && !header.some((l) => /^(subject|主题)\s*[:：]/i.test(l))) header.unshift(`Subject: ${subject}`);

    const body = lines.slice(headerEnd);
    const pieces: Piece[] = [];
    if (header.length > 0) pieces.push({ text: header.join("\n"), positions: positionsOf(headerBlocks) });
    const drafts: ChunkDraft[] = [];
    for (const block of body) {
      if (block.kind === "table") {
        drafts.push(...flowChunks([block], settings, subject));
        continue;
      }
      const text = blockText(block);
      for (const piece of splitOnDelimiters(text, settings.delimiters)) pieces.push({ ...piece, positions: block.positions });
    }
    const merged = mergePieces(pieces, settings.maxTokens).map((p) => ({ text: p.text, positions: p.positions, title: subject }));
    drafts.unshift(...merged);

    for (const attachment of document.attachments ?? []) {
      drafts.push(...flowChunks(attachment.document.blocks, settings, attachment.fileName));
    }
    return { chunks: finishChunks(drafts) };
  },
};
