import { completeChat, type ChatMessage, type ChatModel } from "../models/model-types";
import { parseModelId, type ModelsService } from "../models/models.service";
import { BUILTIN_PROVIDER } from "../models/providers/registry";

/** The chat model that translates, and whether it is the built-in extractive one (which cannot). */
export interface TranslatingModel {
  model: ChatModel;
  builtin: boolean;
  signal?: AbortSignal;
}

export interface Translated {
  /** What to search: the translations, one per line; the question itself when there are none. */
  question: string;
  /** Whether a model translated it (false: the built-in model, or no translation came back). */
  translated: boolean;
  /** What happened, for the answer's debug prompt or the server log. */
  note: string;
}

/** The languages a request or an assistant names (RAGFlow's `cross_languages`: a list of language names). */
export function crossLanguagesOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return [...new Set(value.filter((l): l is string => typeof l === "string").map((l) => l.trim()).filter((l) => l !== ""))];
}

/** RAGFlow's cross_languages prompts (prompts/cross_languages_sys_prompt.md and its user prompt), abridged. */
function crossLanguagesPrompt(question: string, languages: string[]): ChatMessage[] {
  return [
    {
      role: "system",
      content: `You are a streamlined multilingual translator.
- Translate the user's query into each of the target languages, keeping its meaning, names, numbers and technical terms exactly.
- Output one translation per target language, in the order given, separated by a line containing only ===.
- Output the translations only: no labels, no explanation.`,
    },
    { role: "user", content: `**Input:**\n\`\`\`\n${question}\n\`\`\`\n---\n\n**Target Languages:** ${languages.join(", ")}` },
  ];
}

/**
 * Cross-language retrieval (RAGFlow's `cross_languages`): the question translated into each language, the
 * translations searched together, so that a Chinese question finds English chunks and the reverse. It
 * needs a language model; the built-in extractive model cannot translate, which the note says, and the
 * question is searched as written. A failed translation keeps the question too, as RAGFlow does.
 */
export async function translateQuestion(q: TranslatingModel, question: string, languages: string[]): Promise<Translated> {
  if (q.builtin) {
    return {
      question,
      translated: false,
      note: `Cross-language retrieval (${languages.join(", ")}) is not available with the built-in extractive model: it cannot translate. Choose a chat model from a model provider; the question was searched as written.`,
    };
  }
  const answer = (await completeChat(q.model, crossLanguagesPrompt(question, languages), { temperature: 0.2, maxTokens: 1024, signal: q.signal })).text;
  const translations = answer
    .replace(/^[\s\S]*<\/think>/, "")
    .replace(/^\s*output\s*:/i, "")
    .split(/^\s*===\s*$/m)
    .map((t) => t.trim())
    .filter((t) => t !== "");
  if (translations.length === 0 || answer.includes("**ERROR**")) return { question, translated: false, note: "Cross-language retrieval: the model gave no translation; the question was searched as written." };
  const translated = translations.join("\n");
  return { question: translated, translated: true, note: `Cross-language retrieval (${languages.join(", ")}): ${translations.join(" | ")}` };
}


/**
 * Cross-language retrieval outside a chat (the retrieval API, the testing page): translated by the tenant's
 * default chat model, as RAGFlow's retrieval does. Neither answer has a place for the note, so when the
 * question could not be translated the server log says why.
 */
export async function translateForRetrieval(models: ModelsService, tenantId: string, question: string, languages: string[]): Promise<Translated> {
  const modelId = (await models.defaults(tenantId)).chat;
  const model = await models.client(tenantId, "chat", modelId);
  const translated = await translateQuestion({ model, builtin: parseModelId(modelId)?.provider === BUILTIN_PROVIDER }, question, languages);
  if (!translated.translated) console.warn(`[retrieval] ${translated.note}`);
  return translated;
}
