import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { BuiltinEmbedding, EMBEDDING_DIMENSION } from "./embedding";

const model = new BuiltinEmbedding();

async function embed(...texts: string[]): Promise<number[][]> {
  return (await model.embed(texts)).vectors;
}

function cosine(a: number[], b: number[]): number {
  return a.reduce((sum, x, i) => sum + x * b[i], 0);
}

function norm(v: number[]): number {
  return Math.sqrt(cosine(v, v));
}

// The first run on a machine builds the WordNet lexicon (~25 s); later runs load it from the cache.
jest.setTimeout(120_000);

describe("the built-in embedding", () => {
  it("gives every text a unit vector of 1024 numbers, the same in another process", async () => {
    const texts = ["Retrieval augmented generation cites its sources.", "检索增强生成", ""];
    const vectors = await embed(...texts);
    expect(EMBEDDING_DIMENSION).toBe(1024);
    for (const vector of vectors) {
      expect(vector).toHaveLength(1024);
      expect(norm(vector)).toBeCloseTo(1, 6);
      expect(vector.every(Number.isFinite)).toBe(true);
    }
    expect(await embed(texts[0])).toEqual([vectors[0]]);

    const child = path.join(__dirname, "embed.child.ts");
    const register = path.join(__dirname, "../../testing/register-ts.cjs");
    const { stdout } = await promisify(execFile)(process.execPath, ["-r", register, child, ...texts], { maxBuffer: 16 << 20 });
    expect(JSON.parse(stdout)).toEqual(vectors);
  });

  it("embeds a query and a document alike, and counts the tokens it read", async () => {
    const text = "Aspirin inhibits the production of PGE2.";
    const asQuery = await model.embed([text], { purpose: "query" });
    const asDocument = await model.embed([text], { purpose: "document" });
    expect(asQuery.vectors).toEqual(asDocument.vectors);
    expect(asQuery.usage).toEqual({ promptTokens: expect.any(Number), completionTokens: 0, totalTokens: expect.any(Number) });
    expect(asQuery.usage!.promptTokens).toBeGreaterThan(5);
  });

  it("puts a sentence nearer to its paraphrase than to an unrelated sentence", async () => {
    const [claim, paraphrase, unrelated] = await embed(
      "Vitamin B12 deficiency increases blood levels of homocysteine.",
      "Low vitamin B12 is associated with raised plasma homocysteine concentrations.",
      "The football club announced a new stadium sponsorship deal.",
    );
    expect(cosine(claim, paraphrase)).toBeGreaterThan(cosine(claim, unrelated) + 0.2);
  });

  it("relates words that share no letters when WordNet makes them synonyms: physician and doctor", async () => {
    const [physician, doctor, banana] = await embed("physician", "doctor", "banana");
    expect(cosine(physician, doctor)).toBeGreaterThan(cosine(physician, banana) + 0.05);
    expect(cosine(physician, doctor)).toBeGreaterThan(cosine(doctor, banana) + 0.05);
    const [sick, ill, car] = await embed("The physician treated the patient.", "The doctor treated the patient.", "The mechanic repaired the engine.");
    expect(cosine(sick, ill)).toBeGreaterThan(cosine(sick, car) + 0.2);
  });

  it("matches morphological variants that stemming alone misses", async () => {
    const [vasodilating, vasodilator, unrelated] = await embed("vasodilating mechanisms", "vasodilator responses", "tax returns");
    expect(cosine(vasodilating, vasodilator)).toBeGreaterThan(cosine(vasodilating, unrelated) + 0.1);
  });

  it("groups Chinese texts by subject, whatever the segmentation, in Simplified and Traditional characters", async () => {
    const [rag, ragAssistant, weather, ragTraditional, ragAssistantTraditional] = await embed(
      "检索增强生成系统引用知识库中的文档",
      "我们正在构建检索增强生成的聊天助手",
      "今天北京天气晴朗，气温二十度",
      "檢索增強生成系統引用知識庫中的文件",
      "我們正在構建檢索增強生成的聊天助手",
    );
    expect(cosine(rag, ragAssistant)).toBeGreaterThan(cosine(rag, weather) + 0.2);
    expect(cosine(ragTraditional, ragAssistantTraditional)).toBeGreaterThan(cosine(ragTraditional, weather) + 0.2);
  });
});
