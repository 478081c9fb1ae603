import { guardedChat } from "../chat-tools";
import { completeChat, type ChatModel, type Img2TxtModel, type ModelClients, type ModelType } from "../model-types";
import { unsupportedType, type CatalogueModel } from "../provider";

/** Code that the provider modules share beyond the HTTP plumbing of ../http.ts. */

/** The client factories of a provider, by model type. */
export type ClientFactories = { [K in ModelType]?: () => ModelClients[K] };

/**
 * The client of one model type from a provider's factories; a type it does not offer is an error. A chat
 * model comes guarded: a request for tools or a JSON answer that it cannot honour is refused.
 */
export function pickClient<T extends ModelType>(provider: string, type: T, factories: ClientFactories): ModelClients[T] {
  const factory = factories[type] as (() => ModelClients[T]) | undefined;
  if (!factory) throw unsupportedType(provider, type);
  const client = factory();
  return type === "chat" ? (guardedChat(provider, client as ChatModel) as ModelClients[T]) : client;
}

/** Catalogue shorthand: models of one type, each a name or a name with its context size in tokens. */
export function catalogueOf(type: ModelType, entries: readonly (string | readonly [string, number])[], extra: { vision?: boolean } = {}): CatalogueModel[] {
  return entries.map((entry) => (typeof entry === "string" ? { name: entry, type, ...extra } : { name: entry[0], type, maxTokens: entry[1], ...extra }));
}

// RAGFlow's picture-description prompts, so that a knowledge base parsed here reads like one parsed there.
const DESCRIBE_PROMPTS = {
  en: "Please describe the content of this picture, like where, when, who, what happen. If it has number data, please extract them out.",
  zh: "请用中文详细描述一下图中的内容，比如时间，地点，人物，事情，人物心情等，如果有数据请提取出数据。",
};

function isChinese(language: string | undefined): boolean {
  return /^(zh|chinese|中文)/i.test(language?.trim() ?? "");
}

/**
 * Image to text through a vision-capable chat model: one user message carrying the picture and the
 * prompt. Every vendor whose vision models are chat models (all of them here) describes images this way.
 */
export function describeWithChat(chat: ChatModel): Img2TxtModel {
  return {
    describe(image, options = {}) {
      const prompt = options.prompt ?? DESCRIBE_PROMPTS[isChinese(options.language) ? "zh" : "en"];
      return completeChat(chat, [{ role: "user", content: prompt, images: [image] }], { signal: options.signal });
    },
  };
}

/** ISO 639-1 for speech-to-text endpoints: codes pass, RAGFlow's language names map, anything else is left to the model. */
export function languageCode(language: string | undefined): string | undefined {
  const value = language?.trim();
  if (!value) return undefined;
  if (/^[a-z]{2}$/i.test(value)) return value.toLowerCase();
  const names: Record<string, string> = { english: "en", chinese: "zh", japanese: "ja", korean: "ko", spanish: "es", french: "fr", german: "de", indonesian: "id", russian: "ru", portuguese: "pt", italian: "it", vietnamese: "vi", arabic: "ar" };
  return names[value.toLowerCase()] ?? (/^zh[-_]/i.test(value) ? "zh" : undefined);
}
