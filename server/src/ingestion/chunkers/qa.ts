import { logMessage, type LogMessage } from "../parse-log";
import type { Block, BlockPosition, ChunkDraft, ChunkMethod, TableBlock } from "../types";
import { blockText, finishChunks, splitLines } from "./blocks";
import { joinPositions } from "./token-budget";
import { BASE_PARSER_DEFAULTS, ENRICHMENT_OFF, ENRICHMENT_PARAMS, RAPTOR_SETTINGS } from "./parser-params";

/**
 * "Q&A": one chunk per question and answer. Read from tables (first column the question, second the
 * answer, or the columns named so), from Markdown (a heading is a question, the text under it the
 * answer), from text lines ("Q: … / A: …", "Question: / Answer:", "问：/答：", or "question<TAB>answer"),
 * and from documents (a paragraph ending with "?" or a numbered question, followed by its answer). The
 * chunk reads "Question: …\nAnswer: …"; only the question is embedded, as RAGFlow does.
 */

export interface QaPair {
  question: string;
  answer: string;
  positions?: BlockPosition[];
}

const QUESTION_HEADER = /^(?:q|question|questions|问题|問題|问|問|pregunta|pertanyaan)$/i;
const ANSWER_HEADER = /^(?:a|answer|answers|答案|回答|答|respuesta|jawaban)$/i;
const Q_MARK = /^(?:q\s*\d*|question\s*\d*|问|問|问题|問題)\s*[:：.、]\s*/i;
const A_MARK = /^(?:a\s*\d*|answer\s*\d*|答|答案|回答)\s*[:：.、]\s*/i;
const NUMBERED_QUESTION = /^(?:\d{1,3}[.、)）]|[（(]\d{1,3}[)）]|q\d{1,3}[.:：]?)\s*\S.*[?？]\s*$/i;

export function pairText(pair: QaPair): string {
  return `Question: ${pair.question}\nAnswer: ${pair.answer}`;
}

function pairsFromTable(table: TableBlock): QaPair[] {
  let rows = table.rows;
  let header = table.header.map((h) => h.trim());
  if (header.length === 0 && rows.length > 0 && QUESTION_HEADER.test((rows[0][0] ?? "").trim()) && ANSWER_HEADER.test((rows[0][1] ?? "").trim())) {
    header = rows[0].map((h) => h.trim());
    rows = rows.slice(1);
  }
  const q = Math.max(0, header.findIndex((h) => QUESTION_HEADER.test(h)));
  const named = header.findIndex((h) => ANSWER_HEADER.test(h));
  const a = named >= 0 ? named : q === 0 ? 1 : 0;
  return rows.map((row) => ({ question: (row[q] ?? "").trim(), answer: (row[a] ?? "").trim(), positions: table.positions }));
}

/** Markdown and structured documents: each heading asks, the blocks under it answer. */
function pairsFromHeadings(blocks: Block[]): QaPair[] {
  const pairs: QaPair[] = [];
  let open: { question: string; answer: string[]; positions?: BlockPosition[] } | undefined;
  const close = () => {
    if (open) pairs.push({ question: open.question, answer: open.answer.join("\n"), positions: open.positions });
    open = undefined;
  };
  for (const block of blocks) {
    if (block.kind === "heading") {
      close();
      open = { question: block.text.trim(), answer: [], positions: block.positions };
    } else if (open) {
      const text = blockText(block);
      if (text) open.answer.push(text);
      open.positions = joinPositions(open.positions, block.positions);
    }
  }
  close();
  return pairs;
}

/** Lines with markers ("Q:"/"A:", "问："/"答："), a question line followed by answer lines, or tab-separated pairs. */
function pairsFromLines(blocks: Block[]): QaPair[] {
  const lines = splitLines(blocks).filter((b) => b.kind !== "table" && blockText(b) !== "");
  const marked = lines.some((b) => Q_MARK.test(blockText(b))) && lines.some((b) => A_MARK.test(blockText(b)));
  const tabbed = !marked && lines.filter((b) => /\S\t+\S/.test(blockText(b))).length >= Math.max(1, lines.length / 2);
  if (tabbed) {
    return lines.flatMap((b) => {
      const [question, ...rest] = blockText(b).split(/\t+/);
      return rest.length > 0 ? [{ question: question.trim(), answer: rest.join(" ").trim(), positions: b.positions }] : [];
    });
  }
  const pairs: QaPair[] = [];
  let open: { question: string; answer: string[]; positions?: BlockPosition[]; answering: boolean } | undefined;
  const close = () => {
    if (open) pairs.push({ question: open.question.trim(), answer: open.answer.join("\n").trim(), positions: open.positions });
    open = undefined;
  };
  for (const block of lines) {
    const text = blockText(block);
    if (marked ? Q_MARK.test(text) : /[?？]\s*$/.test(text) || NUMBERED_QUESTION.test(text)) {
      close();
      open = { question: marked ? text.replace(Q_MARK, "") : text, answer: [], positions: block.positions, answering: !marked };
      continue;
    }
    if (!open) continue;
    open.positions = joinPositions(open.positions, block.positions);
    if (marked && A_MARK.test(text)) {
      open.answering = true;
      open.answer.push(text.replace(A_MARK, ""));
    } else if (open.answering) open.answer.push(text);
    // Before its "A:" line, a line continues the question.
    else open.question += ` ${text}`;
  }
  close();
  return pairs;
}

export function qaPairs(blocks: Block[], fileName: string): QaPair[] {
  const tables = blocks.filter((b): b is TableBlock => b.kind === "table");
  const pairs = tables.flatMap(pairsFromTable);
  const rest = blocks.filter((b) => b.kind !== "table");
  // Headings are the questions in Markdown, and elsewhere when most of them are phrased as questions;
  // otherwise a heading ("FAQ") is a title and the questions are read from the lines.
  const headings = rest.filter((b) => b.kind === "heading").map(blockText);
  const markdown = /\.(md|markdown|mdx)$/i.test(fileName);
  const askingHeadings = headings.length > 0 && headings.filter((t) => /[?？]\s*$/.test(t)).length * 2 >= headings.length;
  const headingQuestions = headings.length > 0 && (markdown || askingHeadings);
  pairs.push(...(headingQuestions ? pairsFromHeadings(rest) : pairsFromLines(rest)));
  return pairs;
}

export const qaMethod: ChunkMethod = {
  name: "qa",
  fileTypes: ["xlsx", "xls", "csv", "txt", "md", "markdown", "pdf", "docx"],
  params: [...ENRICHMENT_PARAMS, RAPTOR_SETTINGS],
  defaults: { ...BASE_PARSER_DEFAULTS, ...ENRICHMENT_OFF },
  async chunk(document, context) {
    const pairs = qaPairs(document.blocks, context.fileName);
    const complete = pairs.filter((p) => p.question !== "" && p.answer !== "");
    const drafts: ChunkDraft[] = complete.map((pair) => ({
      text: pairText(pair),
      embeddingText: pair.question,
      questions: [pair.question],
      positions: pair.positions,
    }));
    const notes: LogMessage[] = [];
    if (pairs.length > complete.length) notes.push(logMessage("parseLog.qaIncomplete", { count: pairs.length - complete.length }));
    if (complete.length === 0) notes.push(logMessage("parseLog.qaNone"));
    return { chunks: finishChunks(drafts), notes };
  },
};
