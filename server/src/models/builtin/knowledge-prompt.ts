import { LANGUAGES, localizedMessage } from "../../platform/messages";
import type { ChatMessage } from "../model-types";
import { FIXED_SENTENCES } from "./fixed-sentences";

/**
 * Reading a chat prompt the way an extractive model needs it: which passages of knowledge it carries
 * (and under which citation ids), what the question is, and which "not found" sentence the prompt asks
 * for. Understands RAGFlow's conventions — a system prompt with "Here is the knowledge base: … The above
 * is the knowledge base." around `{knowledge}`, filled with blocks "ID: n / ├── Title: … / └── Content:"
 * (v0.15+) or "Document: … Relevant fragments as following: 1. …" (older) — and plain context given
 * under a "Context:" / "Knowledge:" label or in <context> tags.
 */

export interface Passage {
  /** The id to cite, as `[ID:<id>]`. */
  id: string;
  title?: string;
  text: string;
}

export interface ReadPrompt {
  /** null: the prompt carries no knowledge slot at all (plain chat); []: the slot is there but empty. */
  passages: Passage[] | null;
  question: string;
  /** Earlier user turns, most recent last. */
  history: string[];
  notFoundSentence: string;
}

export const NOT_FOUND_SENTENCE = FIXED_SENTENCES.en.notFound;

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/**
 * The lines around `{knowledge}` in the default system prompt of every interface language ("Here is the knowledge
 * base:" … "The above is the knowledge base.", "以下是知识库：" … "以上是知识库。"), which mark where the knowledge is.
 */
const SLOT_MARKERS = LANGUAGES.map((locale) => {
  const [before, after] = localizedMessage(locale, "chat.defaults.systemPrompt").split("{knowledge}");
  const open = before.trim().split("\n").pop()!.trim().replace(/[:：]$/, "");
  const close = after.trim().split("\n")[0].trim().replace(/[.。]$/, "");
  return { open: escaped(open), close: escaped(close) };
});
const KNOWLEDGE_SLOT = new RegExp(
  `(?:${SLOT_MARKERS.map((m) => m.open).join("|")})[:：]?([\\s\\S]*?)(?:(?:${SLOT_MARKERS.map((m) => m.close).join("|")})[.。]?|$)`,
  "i",
);
const CONTEXT_LABEL = /(?:^|\n)\s*(?:context|knowledge|knowledge base|documents?|references?|background|参考资料|知识库|上下文|资料)\s*[:：]\s*\n?([\s\S]*?)(?=\n\s*(?:question|query|问题)\s*[:：]|$)/i;
const CONTEXT_TAGS = /<(context|knowledge|documents?)>([\s\S]*?)<\/\1>/i;
const QUESTION_LABEL = /(?:^|\n)\s*(?:question|query|问题)\s*[:：]\s*([\s\S]+)$/i;
const NOT_FOUND_IN_PROMPT = /the answer you are looking for is not found in the ([^"'”!.\n]+)([!.])?/i;

/** "ID: 3" blocks of RAGFlow's kb_prompt (v0.15+): metadata lines drawn with ├── / └──, then the content. */
function idBlocks(text: string): Passage[] | null {
  const parts = text.split(/(?:^|\n)[ \t]*ID:[ \t]*(\S+)[ \t]*(?=\n|$)/);
  if (parts.length < 3) return null;
  const passages: Passage[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const body = parts[i + 1] ?? "";
    const content = /└──\s*Content:[ \t]*\n?([\s\S]*)$/.exec(body);
    const title = /├──\s*Title:[ \t]*(.*)/.exec(body)?.[1]?.trim();
    const text = content ? content[1] : body.replace(/^\s*[├└]──[^\n]*$/gm, "");
    passages.push({ id: parts[i], title, text: text.trim() });
  }
  return passages;
}

/** The older layout: "Document: name" headers, each with numbered fragments. */
function documentFragments(text: string): Passage[] | null {
  if (!/(?:^|\n)\s*Document:\s*/.test(text)) return null;
  const passages: Passage[] = [];
  for (const section of text.split(/(?:^|\n)\s*-{3,}\s*(?=\n|$)/)) {
    const header = /(?:^|\n)\s*Document:\s*(.*)/.exec(section);
    const title = header?.[1]?.trim();
    const body = section.replace(/(?:^|\n)\s*Document:.*\n?/, "").replace(/Relevant fragments as following:\s*/i, "");
    const fragments = body.split(/(?:^|\n)\s*\d+\.\s+/).map((f) => f.trim()).filter((f) => f !== "");
    for (const fragment of fragments) passages.push({ id: String(passages.length), title, text: fragment });
  }
  return passages;
}

/** Plain text: one passage per paragraph (blank-line separated), numbered from 0. */
function paragraphs(text: string): Passage[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p, i) => ({ id: String(i), text: p }));
}

function passagesOf(region: string): Passage[] {
  return idBlocks(region) ?? documentFragments(region) ?? paragraphs(region);
}

export function readPrompt(messages: ChatMessage[]): ReadPrompt {
  const system = messages
    .filter((m) => m.role === "system")
    .map((m) => m.content)
    .join("\n\n");
  const users = messages.filter((m) => m.role === "user").map((m) => m.content);
  let question = users[users.length - 1] ?? "";
  const history = users.slice(0, -1);
  // The prompt's own wording wins ("… not found in the dataset!" in RAGFlow's API default), in English or
  // as one of the model's own sentences in another language.
  const asked = NOT_FOUND_IN_PROMPT.exec(system);
  const notFoundSentence = asked
    ? `The answer you are looking for is not found in the ${asked[1].trim()}${asked[2] ?? "!"}`
    : (Object.values(FIXED_SENTENCES).find((s) => system.includes(s.notFound))?.notFound ?? NOT_FOUND_SENTENCE);

  let passages: Passage[] | null = null;
  const slot = KNOWLEDGE_SLOT.exec(system);
  if (slot) passages = passagesOf(slot[1]);
  else {
    // Knowledge may also come with the question: "Context: … Question: …", or tagged.
    for (const source of [question, system]) {
      const tagged = CONTEXT_TAGS.exec(source);
      const labelled = tagged ? null : CONTEXT_LABEL.exec(source);
      const region = tagged?.[2] ?? labelled?.[1];
      if (region === undefined) continue;
      passages = passagesOf(region);
      if (source === question) {
        const asked = QUESTION_LABEL.exec(question)?.[1];
        question = (asked ?? question.replace(tagged?.[0] ?? labelled?.[0] ?? "", "")).trim();
      }
      break;
    }
    if (passages === null) {
      const blocks = idBlocks(system);
      if (blocks) passages = blocks;
    }
  }
  return { passages, question: question.trim(), history, notFoundSentence };
}
