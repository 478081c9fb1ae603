import type { LogMessage } from "./parse-log";
import type { Block, ChunkContext, ChunkDraft, ChunkMethod, ParsedDocument } from "./types";

/** What chunking one document gives: its chunks and notes for the log. */
export interface Chunked {
  drafts: ChunkDraft[];
  notes: LogMessage[];
}

/** Splits blocks into windows of `pageSize` pages (RAGFlow's per-task page ranges); blocks with no page go with the window before them. */
function pageWindows(blocks: Block[], pageSize: number | null | undefined): Block[][] {
  if (!pageSize || !blocks.some((b) => b.page !== undefined)) return [blocks];
  const windows = new Map<number, Block[]>();
  let current = 0;
  for (const block of blocks) {
    if (block.page !== undefined) current = Math.floor((block.page - 1) / pageSize);
    if (!windows.has(current)) windows.set(current, []);
    windows.get(current)!.push(block);
  }
  return [...windows.entries()].sort(([a], [b]) => a - b).map(([, w]) => w);
}

/**
 * Chunks a parsed document with its method, a window of `task_page_size` pages at a time; the same in the
 * parse process (methods that call no model) and in the server (those that do).
 */
export async function chunkParsed(parsed: ParsedDocument, method: ChunkMethod, context: ChunkContext): Promise<Chunked> {
  const chunked: Chunked = { drafts: [], notes: [] };
  const windows = pageWindows(parsed.blocks, context.config.task_page_size);
  for (const [i, blocks] of windows.entries()) {
    const result = await method.chunk(
      { ...parsed, blocks },
      { ...context, progress: (fraction, message) => context.progress((i + fraction) / windows.length, message) },
    );
    // loops, not push(...): a window can hold more chunks than a call has room for arguments
    for (const chunk of result.chunks) if (chunk.text.trim().length > 0) chunked.drafts.push(chunk);
    for (const note of result.notes ?? []) chunked.notes.push(note);
  }
  return chunked;
}
