import type { LogMessage } from "../parse-log";
import { lexicalScorer } from "../../models/builtin/lexical-rerank";
import type { ChatMessage } from "../../models/model-types";
import { truncateToTokens } from "../../models/tokens";
import { askModel, distinctItems, eachChunkWithModel, isBuiltinChat, prefersChinese, type EnrichmentContext } from "./context";
import { topKeyPhrases } from "./key-phrases";

export interface KeywordsResult {
  /** One list per input text, at most `count` each. */
  keywords: string[][];
  /** What produced them, for the UI: the chat model's id (the client says what the built-in one does, in the reader's language). */
  producedBy: string;
  /** For the progress log: chunks whose model call failed. */
  notes: LogMessage[];
}

/** auto_keywords is 0–32 in RAGFlow's parser_config. */
export const MAX_KEYWORDS = 32;
/** What a chunk may take of the prompt; longer chunks are cut (RAGFlow cuts to the model's length). */
const MAX_CHUNK_TOKENS = 6000;

/** RAGFlow's keyword_prompt.md, and the same in Chinese for Chinese knowledge bases. */
function keywordPrompt(content: string, count: number, language: string): string {
  if (prefersChinese(language)) {
    return (
      `## 角色\n你是一个文本分析器。\n\n## 任务\n提取给定文本内容中最重要的关键词或短语。\n\n## 要求\n` +
      `- 概括文本内容，给出最重要的前 ${count} 个关键词或短语。\n- 关键词必须与给定文本使用相同的语言。\n` +
      `- 关键词之间用英文逗号分隔。\n- 只输出关键词。\n\n---\n\n## 文本内容\n${content}\n`
    );
  }
  return (
    `## Role\nYou are a text analyzer.\n\n## Task\nExtract the most important keywords/phrases of a given piece of text content.\n\n## Requirements\n` +
    `- Summarize the text content, and give the top ${count} important keywords/phrases.\n` +
    `- The keywords MUST be in the same language as the given piece of text content (${language} when in doubt).\n` +
    `- The keywords are delimited by ENGLISH COMMA.\n- Output keywords ONLY.\n\n---\n\n## Text Content\n${content}\n`
  );
}

/** Keywords from a model's answer: comma-separated (any script's comma, or one per line), without numbering, bullets or quotes. */
export function parseKeywords(answer: string, count: number): string[] {
  const items = answer
    .replace(/^\s*(?:keywords?|关键词)\s*[:：]\s*/i, "")
    .split(/[,，、;；\n]+/)
    .map((item) =>
      item
        .trim()
        .replace(/^(?:[-*•]\s*|\d+[.)、]\s*)/, "")
        .replace(/^["'“”‘’`*]+|["'“”‘’`*.。]+$/g, "")
        .trim(),
    );
  return distinctItems(items, count);
}

/**
 * `count` keywords for each text (RAGFlow's auto_keywords). With a language model: its keyword prompt, one
 * call per chunk. With the built-in extractive model, which cannot write lists to order: the chunk's key
 * phrases by TF-IDF against the built-in models' IDF tables (key-phrases.ts).
 */
export async function generateKeywords(texts: string[], count: number, context: EnrichmentContext): Promise<KeywordsResult> {
  const wanted = Math.max(0, Math.min(MAX_KEYWORDS, Math.floor(count)));
  if (wanted === 0 || texts.length === 0) return { keywords: texts.map(() => []), producedBy: "", notes: [] };
  const { model, id } = await context.chat();

  if (isBuiltinChat(id)) {
    const scorer = await lexicalScorer();
    const keywords: string[][] = [];
    for (const [i, text] of texts.entries()) {
      context.signal.throwIfAborted();
      keywords.push(topKeyPhrases(text, wanted, scorer).map((p) => p.text));
      context.progress((i + 1) / texts.length);
      // Analysis is synchronous: let other work run between chunks.
      if (i % 16 === 15) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return { keywords, producedBy: id, notes: [] };
  }

  const { results, notes } = await eachChunkWithModel(texts, context, "keywords", async (text) => {
    const messages: ChatMessage[] = [
      { role: "system", content: keywordPrompt(truncateToTokens(text, MAX_CHUNK_TOKENS), wanted, context.language) },
      { role: "user", content: "Output: " },
    ];
    return parseKeywords(await askModel(model, messages, { temperature: 0.2, signal: context.signal }), wanted);
  });
  return { keywords: results, producedBy: id, notes };
}
