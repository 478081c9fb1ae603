import { antecedentOf, refersToEarlierTurns } from "../../models/builtin/follow-up";
import { tokenize } from "../../models/builtin/text-analysis";
import { completeChat, type ChatModel } from "../../models/model-types";
import type { RetrievalHit } from "../../retrieval/retrieval.service";

/**
 * What retrieval is asked: the question refined from the conversation (multi-turn optimisation), with
 * keywords added (keyword extraction), and — with self-RAG — rewritten once when the hits are judged
 * irrelevant. A language model does each with RAGFlow's prompts; Cairn's built-in extractive model writes
 * nothing of its own, so for it each step is lexical, and the debug prompt says so.
 */

export interface QuestionModel {
  model: ChatModel;
  /** The built-in extractive model, which cannot rewrite text. */
  builtin: boolean;
  signal?: AbortSignal;
}

/** The key words of a text, as written (lower-cased), once each, in order; stop words left out. */
export function keyTerms(text: string): string[] {
  const seen = new Set<string>();
  const words: string[] = [];
  for (const token of tokenize(text)) {
    if (seen.has(token.term) || token.word.length < 2) continue;
    seen.add(token.term);
    words.push(token.word);
  }
  return words;
}

const ask = async (q: QuestionModel, prompt: string, maxTokens = 256) =>
  (await completeChat(q.model, [{ role: "user", content: prompt }], { temperature: 0.1, maxTokens, signal: q.signal })).text.trim();

/** RAGFlow's full_question prompt (prompts/full_question_prompt.md), abridged. */
function refinePrompt(turns: { role: string; content: string }[]): string {
  const conversation = turns.map((t) => `${t.role.toUpperCase()}: ${t.content}`).join("\n");
  return `## Role
A helpful assistant.

## Task
Write the user's latest question as one complete, stand-alone question that can be understood without the conversation: resolve pronouns and follow-ups from the earlier turns.

## Requirements
- If the latest question is already complete, return it unchanged.
- Output only the question, in the language of the question; no explanation.

## Conversation
${conversation}

Question:`;
}

export interface Refined {
  question: string;
  note: string;
}

/** How far back a chain of follow-ups ("When was it built?" → "And its architect?") is followed to the turn that names the subject. */
const FOLLOW_UP_DEPTH = 3;

/**
 * The built-in model's lexical stand-in for a rewrite: a user turn that refers back gets what it refers to
 * from the turn before, itself completed the same way — the name that turn gives (antecedentOf: "What
 * religion were they?" after "Who was the Normans' main enemy?" borrows "Normans"), else its key words
 * ("and the highest?" after "What causes tides?"); a turn that stands alone is kept as it is.
 */
function completedTurn(users: string[], index: number, depth = FOLLOW_UP_DEPTH): string {
  const own = users[index];
  if (index === 0 || depth === 0 || !refersToEarlierTurns(own)) return own;
  const before = completedTurn(users, index - 1, depth - 1);
  const have = new Set(tokenize(own).map((t) => t.term));
  const name = antecedentOf(before);
  if (name !== null) return tokenize(name).every((t) => have.has(t.term)) ? own : `${own} ${name}`;
  const borrowed: string[] = [];
  for (const token of tokenize(before)) {
    if (have.has(token.term) || token.word.length < 2) continue;
    have.add(token.term);
    borrowed.push(token.word);
  }
  return borrowed.length > 0 ? `${own} ${borrowed.join(" ")}` : own;
}

/**
 * Multi-turn optimisation. Only a question that refers back (refersToEarlierTurns: a pronoun, a
 * follow-up opener, a fragment) is completed from the conversation: one that stands alone is retrieved
 * exactly as if asked alone, with any model. RAGFlow asks its model to rewrite every question; a model
 * asked to rewrite a complete question sometimes drags the earlier topic into it, and the call is wasted
 * when the question needs nothing, so a language model rewrites only follow-ups, over the last three
 * user turns and the answers between them.
 */
export async function refineQuestion(q: QuestionModel, turns: { role: "user" | "assistant"; content: string }[]): Promise<Refined> {
  const users = turns.filter((t) => t.role === "user").map((t) => t.content);
  const latest = users.at(-1) ?? "";
  if (users.length < 2) return { question: latest, note: "" };
  if (!refersToEarlierTurns(latest)) return { question: latest, note: "Multi-turn optimisation: the question stands alone (it does not refer to earlier turns); used as it is." };
  if (q.builtin) {
    const question = completedTurn(users, users.length - 1);
    return {
      question,
      note: `Multi-turn optimisation (built-in model, lexical: it cannot rewrite a question, so what it refers to in the turn before was joined to it): ${question}`,
    };
  }
  const userTurns = turns.filter((t) => t.role === "user");
  const window = turns.slice(Math.max(0, turns.indexOf(userTurns.at(-3) ?? userTurns[0])));
  const refined = await ask(q, refinePrompt(window));
  const question = refined.replace(/^(question|output)\s*[:：]\s*/i, "").trim() || latest;
  return { question, note: `Multi-turn optimisation: ${question}` };
}

/** RAGFlow's keyword_extraction prompt. */
function keywordPrompt(text: string, topN = 3): string {
  return `## Role
You are a text analyzer.

## Task
Extract the most important keywords/phrases of a given piece of text content.

## Requirements
- Summarize the text content, and give the top ${topN} important keywords/phrases.
- The keywords MUST be in the language of the given piece of text content.
- The keywords are delimited by ENGLISH COMMA.
- Output keywords ONLY.

---

## Text Content
${text}`;
}

export async function extractKeywords(q: QuestionModel, question: string): Promise<string[]> {
  if (q.builtin) return keyTerms(question).slice(0, 8);
  const answer = await ask(q, keywordPrompt(question), 64);
  return answer
    .split(/[,，、\n]/)
    .map((k) => k.trim())
    .filter((k) => k !== "" && k.length <= 64);
}

/** RAGFlow's relevance grader prompt (self-RAG). */
function relevancePrompt(question: string, hits: RetrievalHit[]): string {
  const documents = hits
    .slice(0, 6)
    .map((h) => h.chunk.content.slice(0, 1200))
    .join("\n---\n");
  return `You are a grader assessing the relevance of retrieved documents to a user question.
If the documents contain keywords or meaning related to the user question, grade them as relevant.
Give a binary score 'yes' or 'no' to indicate whether the documents are relevant to the question. Answer with the one word only.

Retrieved documents:
${documents}

User question: ${question}`;
}

/** Share of the question's key terms the best hit must hold to count as relevant (the built-in, lexical judge). */
const LEXICAL_RELEVANCE = 0.5;

export async function judgeRelevance(q: QuestionModel, question: string, hits: RetrievalHit[]): Promise<boolean> {
  if (hits.length === 0) return false;
  if (q.builtin) {
    const terms = [...new Set(tokenize(question).map((t) => t.term))];
    if (terms.length === 0) return true;
    return hits.some((hit) => {
      const held = new Set(tokenize(hit.chunk.content).map((t) => t.term));
      return terms.filter((t) => held.has(t)).length / terms.length >= LEXICAL_RELEVANCE;
    });
  }
  return /\byes\b/i.test(await ask(q, relevancePrompt(question, hits), 8));
}

/** RAGFlow's query-rewrite prompt (self-RAG's retry). */
function rewritePrompt(question: string): string {
  return `You are an expert at query expansion for retrieval.
Rewrite the question below so that a search over a knowledge base finds what answers it: keep its meaning, spell out abbreviations, add close synonyms of its key terms.
Output only the rewritten question.

Question: ${question}`;
}

/**
 * A second query for retrieval. The built-in model keeps only the key terms (retrieval then weighs each
 * of them fully instead of a sentence dominated by one). The query is the refined one: a follow-up
 * already carries what it borrowed from earlier turns, and a question that stands alone borrows nothing.
 */
export async function rewriteQuestion(q: QuestionModel, question: string): Promise<string> {
  if (q.builtin) return keyTerms(question).join(" ") || question;
  return (await ask(q, rewritePrompt(question))).trim() || question;
}
