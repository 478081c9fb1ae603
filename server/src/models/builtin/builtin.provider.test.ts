import { DomainError } from "../../platform/errors";
import { probeModel } from "../probe";
import { expectTranslatedEverywhere } from "../testing/translated";
import { findProvider, providers } from "../providers/registry";
import { builtin, closeBuiltinModels } from "./builtin.provider";

jest.setTimeout(120_000);

afterAll(() => closeBuiltinModels());

describe("the Builtin provider", () => {
  it("comes first in the registry, needs no credentials and offers one default model of each type it has", () => {
    expect(providers[0]).toBe(builtin);
    expect(findProvider("builtin")).toBe(builtin);
    expect(builtin.credentialFields).toEqual([]);
    const firstOfType = (type: string) => builtin.catalogue?.find((m) => m.type === type)?.name;
    expect(["chat", "embedding", "rerank", "img2txt"].map(firstOfType)).toEqual(["cairn-extractive", "cairn-embedding", "cairn-lexical-rerank", "tesseract-ocr"]);
    expect(builtin.modelTypes).toEqual(["chat", "embedding", "rerank", "img2txt"]);
  });

  it("answers RAGFlow's BGE name with its own embedding, vector for vector", async () => {
    expect(builtin.catalogue).toContainEqual(expect.objectContaining({ name: "BAAI/bge-small-en-v1.5", type: "embedding" }));
    const texts = ["What is retrieval augmented generation?"];
    const own = await builtin.create("embedding", { modelName: "cairn-embedding", credentials: {} }).embed(texts);
    const aliased = await builtin.create("embedding", { modelName: "BAAI/bge-small-en-v1.5", credentials: {} }).embed(texts);
    expect(aliased.vectors).toEqual(own.vectors);
  });

  it("refuses a model it does not have", () => {
    expect(() => builtin.create("embedding", { modelName: "BAAI/bge-m3", credentials: {} })).toThrow(/no embedding model named "BAAI\/bge-m3"/);
    expect(() => builtin.create("tts", { modelName: "cairn-extractive", credentials: {} })).toThrow(/no tts model/);
  });

  it.each(["chat", "embedding", "rerank", "img2txt"] as const)("passes the connection test for its %s model", async (type) => {
    const name = builtin.catalogue!.find((m) => m.type === type)!.name;
    await expect(probeModel(type, builtin.create(type, { modelName: name, credentials: {} }))).resolves.toBeUndefined();
  });

  it("declares that its extractive chat can neither call tools nor answer in JSON, and refuses both with a translated error", async () => {
    const chat = builtin.create("chat", { modelName: "cairn-extractive", credentials: {} });
    expect(chat.capabilities).toEqual({ tools: false, structuredOutput: false });
    const ask = (options: Parameters<typeof chat.stream>[1]) => chat.stream([{ role: "user", content: "What is RAG?" }], options)[Symbol.asyncIterator]().next();
    const tools = await ask({ tools: [{ name: "search", parameters: { type: "object", properties: {} } }] }).catch((e: unknown) => e);
    expect(tools).toBeInstanceOf(DomainError);
    expect(tools).toMatchObject({ kind: "BAD_REQUEST", messageKey: "errors.model.toolsUnsupported", params: { provider: "Builtin" } });
    expectTranslatedEverywhere("errors.model.toolsUnsupported", { provider: "Builtin" });
    await expect(ask({ responseFormat: { type: "json" } })).rejects.toMatchObject({ messageKey: "errors.model.structuredOutputUnsupported" });
    // Plain text is answered as before.
    await expect(ask({})).resolves.toMatchObject({ done: false, value: { type: "delta" } });
  });
});
