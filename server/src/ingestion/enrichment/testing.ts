import type { LogMessage } from "../parse-log";
import { BuiltinEmbedding } from "../../models/builtin/embedding";
import { BuiltinExtractiveChat } from "../../models/builtin/extractive-chat";
import type { ChatEvent, ChatMessage, ChatModel, GenerationOptions } from "../../models/model-types";
import type { EnrichmentContext } from "./context";

/** Test helpers for enrichment: a scripted chat model and contexts around it or the built-in models. */

/** A chat model that streams whatever `answer` returns for the prompt, in small pieces; `answer` may throw. */
export class ScriptedChat implements ChatModel {
  readonly calls: { messages: ChatMessage[]; options?: GenerationOptions }[] = [];

  constructor(private readonly answer: (prompt: string, call: number) => string | Promise<string>) {}

  async *stream(messages: ChatMessage[], options?: GenerationOptions): AsyncIterable<ChatEvent> {
    this.calls.push({ messages, options });
    const prompt = messages.map((m) => m.content).join("\n");
    const text = await this.answer(prompt, this.calls.length);
    for (let i = 0; i < text.length; i += 7) {
      options?.signal?.throwIfAborted();
      yield { type: "delta", text: text.slice(i, i + 7) };
    }
    yield { type: "usage", usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } };
    yield { type: "finish", reason: "stop" };
  }
}

const embedding = new BuiltinEmbedding();

export interface TestContext extends EnrichmentContext {
  reports: { fraction: number; message?: LogMessage }[];
  controller: AbortController;
}

/** A context with the built-in embedding and `chat` (the built-in extractive model unless given). */
export function enrichmentContext(options: { chat?: ChatModel; chatId?: string; language?: string } = {}): TestContext {
  const controller = new AbortController();
  const reports: { fraction: number; message?: LogMessage }[] = [];
  const model = options.chat ?? new BuiltinExtractiveChat(0);
  const id = options.chatId ?? (options.chat ? "scripted@Test" : "cairn-extractive@Builtin");
  return {
    chat: async () => ({ model, id }),
    embed: async (texts) => (await embedding.embed(texts, { purpose: "document" })).vectors,
    language: options.language ?? "English",
    signal: controller.signal,
    progress: (fraction, message) => reports.push({ fraction, message }),
    reports,
    controller,
  };
}
