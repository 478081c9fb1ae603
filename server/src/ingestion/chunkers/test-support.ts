import type { ChatModel, Img2TxtModel } from "../../models/model-types";
import type { Block, BlockPosition, ChunkContext, ParsedDocument, ParserConfig } from "../types";

/** Hand-built documents and contexts for the chunk-method tests. */

export function doc(blocks: Block[], extra: Partial<ParsedDocument> = {}): ParsedDocument {
  return { blocks, notes: [], ...extra };
}

export const h = (level: number, text: string, page?: number): Block => ({ kind: "heading", level, text, page });
export const p = (text: string, page?: number, positions?: BlockPosition[]): Block => ({ kind: "paragraph", text, page, positions });
export const box = (page: number, top: number): BlockPosition => ({ page, x0: 10, x1: 500, top, bottom: top + 12 });

/** A chat model that answers nothing; tests that need answers pass their own. */
const silentChat: ChatModel = {
  async *stream() {
    yield { type: "finish", reason: "stop" };
  },
};

export interface TestContext extends ChunkContext {
  progressed: number[];
}

export function context(config: ParserConfig = {}, overrides: Partial<ChunkContext> = {}): TestContext {
  const progressed: number[] = [];
  return {
    fileName: "document.pdf",
    config,
    language: "English",
    chat: async () => ({ model: silentChat, id: "test-model@Test" }),
    img2txt: async () => null,
    signal: new AbortController().signal,
    progress: (fraction: number) => progressed.push(fraction),
    progressed,
    ...overrides,
  };
}

/** An image-to-text model that describes every image the same way, and records the options it was given. */
export class FixedDescriber implements Img2TxtModel {
  calls: { language?: string }[] = [];
  constructor(private readonly description: string) {}
  async describe(_image: unknown, options?: { language?: string }) {
    this.calls.push({ language: options?.language });
    return { text: this.description };
  }
}

export const png = { data: Buffer.from([0x89, 0x50, 0x4e, 0x47]), mimeType: "image/png" };

/** Sentences of varied words, about 12 tokens each. */
export function sentences(count: number, topic = "river"): string[] {
  return Array.from({ length: count }, (_, i) => `Sentence ${i + 1} tells how the ${topic} bends past the old mill number ${i * 7}.`);
}
