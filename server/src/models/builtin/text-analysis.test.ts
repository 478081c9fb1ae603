import { stemEnglish } from "./english-stemmer";
import { analyze, chineseBigrams, foldChineseScript, tokenize } from "./text-analysis";

describe("text analysis for the built-in models", () => {
  it("stems English words with Porter2, as Snowball's reference vocabulary does", () => {
    const expected: Record<string, string> = {
      consign: "consign",
      consignment: "consign",
      consolingly: "consol",
      knightly: "knight",
      generously: "generous",
      communication: "communic",
      hopping: "hop",
      cries: "cri",
      ties: "tie",
      gas: "gas",
      dying: "die",
      skies: "sky",
      news: "news",
      inductive: "induct",
      properties: "properti",
      relational: "relat",
      constructor: "constructor",
    };
    for (const [word, stem] of Object.entries(expected)) expect({ word, stem: stemEnglish(word) }).toEqual({ word, stem });
  });

  it("drops stop words, lower-cases, keeps numbers and names of any script", () => {
    expect(analyze("The Normans' conquest of England in 1066, and its aftermath.")).toEqual(["norman", "conquest", "england", "1066", "aftermath"]);
    expect(tokenize("Ça va, Zürich?").map((t) => t.term)).toEqual(["ça", "va", "zürich"]);
  });

  it("segments Chinese with jieba beside English words, and Traditional text into the same words as Simplified", () => {
    expect(analyze("我们正在构建检索增强生成（RAG）的聊天助手")).toEqual(["正在", "构建", "检索", "增强", "生成", "rag", "聊天", "助手"]);
    expect(analyze("我們正在構建檢索增強生成（RAG）的聊天助手")).toEqual(analyze("我们正在构建检索增强生成（RAG）的聊天助手"));
    // Taiwan's and Hong Kong's variant forms too, phrase by phrase as OpenCC converts them.
    expect(analyze("臺灣的麵包")).toEqual(analyze("台湾的面包"));
    expect(foldChineseScript("乾隆皇帝後來瞭解")).toBe("乾隆皇帝后来了解");
  });

  it("gives the character bigrams of Chinese runs, folded alike, as terms apart from words", () => {
    const bigrams = chineseBigrams("战国无双3，關東");
    expect(bigrams.map((b) => [...b].slice(1).join(""))).toEqual(["战国", "国无", "无双", "关东"]);
    expect(chineseBigrams("战国无双3，关东")).toEqual(bigrams);
    // A two-character word and the bigram of the same characters are different terms.
    expect(bigrams).not.toContain("战国");
    expect(chineseBigrams("only English, and 字")).toEqual([]);
  });

  it("spells out a lone Greek letter, as authors also write it, and leaves Greek words alone", () => {
    expect(analyze("TNFα, IFN-γ and ΔF508")).toEqual(["tnf", "alpha", "ifn", "gamma", "ifngamma", "delta", "f508"]);
    expect(analyze("TNF-α")).toEqual(analyze("TNF-alpha"));
    expect(analyze("ελληνικά")).toEqual(["ελληνικά"]);
  });

  it("also reads a hyphenated compound as one word, after its parts and outside the text's length", () => {
    const tokens = tokenize("IL-6 in state-of-the-art anti-inflammatory drugs, for 2-3 weeks");
    expect(tokens.map((t) => t.term)).toEqual(["il", "6", "il6", "state", "art", "stateoftheart", "anti", "inflammatori", "antiinflammatori", "drug", "2", "3", "week"]);
    expect(tokens.filter((t) => t.joined).map((t) => t.word)).toEqual(["il6", "stateoftheart", "antiinflammatory"]);
    expect(analyze("IL6")).toEqual(["il6"]);
  });

  it("keeps single letters that are words of their own (contractions stay whole, so they are no fragments)", () => {
    expect(analyze("T cells in the S phase don't divide")).toEqual(["t", "cell", "s", "phase", "divid"]);
  });
});
