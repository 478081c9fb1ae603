import { Tiktoken } from "js-tiktoken/lite";
import cl100k from "js-tiktoken/ranks/cl100k_base";
import { countTokens, decodeTokens, encodeTokens, truncateToTokens } from "./tokens";

describe("token counting (cl100k_base)", () => {
  it("counts as OpenAI's tokenizer does", () => {
    expect(countTokens("")).toBe(0);
    expect(countTokens("Hello world")).toBe(2);
    expect(countTokens("tiktoken is great!")).toBe(6);
    expect(countTokens("你好，世界")).toBeGreaterThan(2);
  });

  it("gives exactly js-tiktoken's tokens on English, Chinese, code, emoji and long runs", () => {
    const reference = new Tiktoken(cl100k);
    const texts = [
      "Retrieval-augmented generation (RAG) cites its sources; BM25 scores 0.665 on SciFact.",
      "《战国无双3》是由光荣和ω-force开发的战国无双系列的正统第三续作。本作以三大故事为主轴，分别是以武田信玄等人为主的《关东三国志》",
      "我們正在構建檢索增強生成的聊天助手，日本語のテキスト、한국어 텍스트",
      "function f(x) {\n\treturn x ** 2; // squares\n}   \n\n",
      "emoji 😀👍🏽 and accents: café, naïve, Zürich",
      "a".repeat(3000) + " " + "检".repeat(500),
    ];
    for (const text of texts) expect(encodeTokens(text)).toEqual(reference.encode(text, [], []));
  });

  it("treats special-token text as plain text", () => {
    expect(countTokens("<|endoftext|>")).toBeGreaterThan(1);
  });

  it("decodes what it encodes, and cuts a text on a token boundary", () => {
    const text = "Retrieval augmented generation 检索增强生成";
    expect(decodeTokens(encodeTokens(text))).toBe(text);
    expect(truncateToTokens("The quick brown fox jumps over the lazy dog", 3)).toBe("The quick brown");
    expect(truncateToTokens("short", 10)).toBe("short");
  });
});
