import type { LogMessage } from "../parse-log";
import { splitSentences } from "../../models/builtin/extractive-chat";
import { lexicalScorer } from "../../models/builtin/lexical-rerank";
import type { LexicalScorer } from "../../models/builtin/lexical-scoring";
import { isCjk } from "../../models/builtin/text-analysis";
import type { ChatMessage } from "../../models/model-types";
import { truncateToTokens } from "../../models/tokens";
import { askModel, distinctItems, eachChunkWithModel, isBuiltinChat, prefersChinese, type EnrichmentContext } from "./context";
import { topKeyPhrases } from "./key-phrases";

export interface QuestionsResult {
  /** One list per input text, at most `count` each. */
  questions: string[][];
  /** What produced them, for the UI: the chat model's id (the client says what the built-in one does, in the reader's language). */
  producedBy: string;
  /** For the progress log: chunks whose model call failed. */
  notes: LogMessage[];
}

/** auto_questions is 0–10 in RAGFlow's parser_config. */
export const MAX_QUESTIONS = 10;
const MAX_CHUNK_TOKENS = 6000;
/** Questions of the catch-all template ("What does the text say about X?") per chunk: they say little each. */
const MAX_GENERIC_QUESTIONS = 2;

/** RAGFlow's question_prompt.md, and the same in Chinese for Chinese knowledge bases. */
function questionPrompt(content: string, count: number, language: string): string {
  if (prefersChinese(language)) {
    return (
      `## 角色\n你是一个文本分析器。\n\n## 任务\n针对给定的文本内容提出 ${count} 个问题。\n\n## 要求\n` +
      `- 理解并概括文本内容，提出最重要的前 ${count} 个问题。\n- 问题之间的含义不应重叠。\n- 问题应尽可能覆盖文本的主要内容。\n` +
      `- 问题必须与给定文本使用相同的语言。\n- 每行一个问题。\n- 只输出问题。\n\n---\n\n## 文本内容\n${content}\n`
    );
  }
  return (
    `## Role\nYou are a text analyzer.\n\n## Task\nPropose ${count} questions about a given piece of text content.\n\n## Requirements\n` +
    `- Understand and summarize the text content, and propose the top ${count} important questions.\n` +
    `- The questions SHOULD NOT have overlapping meanings.\n- The questions SHOULD cover the main content of the text as much as possible.\n` +
    `- The questions MUST be in the same language as the given piece of text content (${language} when in doubt).\n` +
    `- One question per line.\n- Output questions ONLY.\n\n---\n\n## Text Content\n${content}\n`
  );
}

/** Questions from a model's answer: one per line, without numbering, bullets, "Q1:" labels or a heading line. */
export function parseQuestions(answer: string, count: number): string[] {
  const lines = answer
    .split(/\n+/)
    .map((line) =>
      line
        .replace(/\*\*/g, "")
        .trim()
        .replace(/^(?:[-*•]\s*|#+\s*|\d+[.)、:：]\s*|(?:q|question|问题)\s*\d*\s*[.:：)]\s*)/i, "")
        .trim(),
    )
    .filter((line) => !/[:：]$/.test(line));
  return distinctItems(lines, count);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const YEAR = /\b(?:1[0-9]{3}|20[0-9]{2})\b/;
const EVENT_VERBS = "founded|invented|introduced|released|published|built|established|discovered|created|developed|launched|signed|written|designed|proposed|completed|opened";

/**
 * A question about `phrase` chosen by the shape of a sentence it starts ("X is a …" → "What is X?"), or
 * null when no sentence has a shape the templates know.
 */
function shapedQuestion(phrase: string, sentences: string[]): string | null {
  if (isCjk(phrase)) {
    for (const sentence of sentences) {
      const at = sentence.indexOf(phrase);
      if (at < 0 || !/^(?:所谓|[“"「（(])?$/.test(sentence.slice(0, at))) continue;
      const after = sentence.slice(at + phrase.length).replace(/^[”"」）)]/, "");
      if (/^(?:主要|通常|常)?(?:用于|用来|可用于|可以用于)/.test(after)) return `${phrase}用于什么？`;
      if (/^(?:是指|指的是|是一种|是一个|是|指|即|被称为|称为)/.test(after)) return `什么是${phrase}？`;
    }
    return null;
  }
  const subject = `^(?:(the|a|an)\\s+)?${escapeRegExp(phrase)}\\s+`;
  for (const sentence of sentences) {
    const copula = new RegExp(`${subject}(is|are|was|were)\\s+(.*)$`, "i").exec(sentence);
    if (copula) {
      // The article as the text has it: "When was the Eiffel Tower completed?"
      if (copula[1]) phrase = `${copula[1].toLowerCase()} ${phrase}`;
      const verb = copula[2].toLowerCase();
      const rest = copula[3];
      if (/^(?:(?:mainly|mostly|commonly|often|primarily|widely|typically)\s+)?used\s+(?:to|for|in)\b/i.test(rest)) return `What ${verb === "was" ? "is" : verb === "were" ? "are" : verb} ${phrase} used for?`;
      const event = new RegExp(`^(?:first\\s+)?(${EVENT_VERBS})\\b`, "i").exec(rest);
      if (event && YEAR.test(rest)) return `When ${verb === "are" ? "were" : verb === "is" ? "was" : verb} ${phrase} ${event[1].toLowerCase()}?`;
      if (/^(?:a|an|the|one|defined|known|called|considered)\b/i.test(rest)) return `What ${verb} ${phrase}?`;
    }
    const meaning = new RegExp(`${subject}(refers to|means|stands for|denotes)\\b`, "i").exec(sentence);
    if (meaning) return meaning[1].toLowerCase() === "refers to" ? `What is ${phrase}?` : `What does ${phrase} mean?`;
  }
  return null;
}

/**
 * Questions the text answers, without a language model: the questions it asks itself, then for its key
 * phrases, a template chosen by the shape of the sentence that introduces the phrase, and at most two of
 * the catch-all "What does the text say about X?".
 */
export function templateQuestions(text: string, count: number, scorer: LexicalScorer): string[] {
  const sentences = splitSentences(text.normalize("NFKC"));
  const asked = sentences.filter((s) => /[?？]$/.test(s) && s.length <= 300);
  const shaped: string[] = [];
  const generic: string[] = [];
  for (const phrase of topKeyPhrases(text, count + MAX_GENERIC_QUESTIONS, scorer)) {
    const question = shapedQuestion(phrase.text, sentences);
    if (question) shaped.push(question);
    else if (generic.length < MAX_GENERIC_QUESTIONS && phrase.nominal) generic.push(isCjk(phrase.text) ? `文中是如何介绍${phrase.text}的？` : `What does the text say about ${phrase.text}?`);
  }
  return distinctItems([...asked, ...shaped, ...generic], count);
}

/**
 * `count` questions for each text (RAGFlow's auto_questions). With a language model: its question prompt,
 * one call per chunk. With the built-in extractive model, which cannot write questions: template questions
 * about the chunk's key phrases (`templateQuestions`), which the UI labels as such.
 */
export async function generateQuestions(texts: string[], count: number, context: EnrichmentContext): Promise<QuestionsResult> {
  const wanted = Math.max(0, Math.min(MAX_QUESTIONS, Math.floor(count)));
  if (wanted === 0 || texts.length === 0) return { questions: texts.map(() => []), producedBy: "", notes: [] };
  const { model, id } = await context.chat();

  if (isBuiltinChat(id)) {
    const scorer = await lexicalScorer();
    const questions: string[][] = [];
    for (const [i, text] of texts.entries()) {
      context.signal.throwIfAborted();
      questions.push(templateQuestions(text, wanted, scorer));
      context.progress((i + 1) / texts.length);
      if (i % 16 === 15) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return { questions, producedBy: id, notes: [] };
  }

  const { results, notes } = await eachChunkWithModel(texts, context, "questions", async (text) => {
    const messages: ChatMessage[] = [
      { role: "system", content: questionPrompt(truncateToTokens(text, MAX_CHUNK_TOKENS), wanted, context.language) },
      { role: "user", content: "Output: " },
    ];
    return parseQuestions(await askModel(model, messages, { temperature: 0.2, signal: context.signal }), wanted);
  });
  return { questions: results, producedBy: id, notes };
}
