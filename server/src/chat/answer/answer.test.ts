import type { Chunk } from "../../knowledge/chunk.entity";
import type { RetrievalHit } from "../../retrieval/retrieval.service";
import { pythonJson, pyFloat } from "../../platform/runs/sse";
import { finalAnswer, insertCitations, referenceOf, repairCitations } from "./citations";
import { fillPrompt, formatKnowledge, systemPrompt, variableValues } from "./prompt";

/** The pure parts of an answer: prompt assembly, variables, citations, and the SSE serialisation. */

function hit(id: string, documentId: string, documentName: string, content: string, similarity = 0.5): RetrievalHit {
  const chunk = { id, documentId, knowledgeBaseId: "kb", content, positions: [], imageKey: null, kind: "text", page: null, tokenCount: 10 } as unknown as Chunk;
  return { chunk, documentName, similarity, termSimilarity: similarity, vectorSimilarity: similarity };
}

const HITS = [
  hit("c0", "d1", "tides.txt", "Tides are caused by the gravitational pull of the moon."),
  hit("c1", "d2", "bread.txt", "Sourdough bread rises because wild yeast ferments the dough."),
];

describe("prompt assembly", () => {
  it("formats the knowledge as RAGFlow's ID blocks, one per chunk", () => {
    expect(formatKnowledge(HITS)).toBe(
      "\nID: 0\n├── Title: tides.txt\n└── Content:\nTides are caused by the gravitational pull of the moon.\n\nID: 1\n├── Title: bread.txt\n└── Content:\nSourdough bread rises because wild yeast ferments the dough.",
    );
  });

  it("fills the variables, leaves unknown braces alone, and puts the citation guide first when quoting", () => {
    expect(fillPrompt("{a} and {b} and {c: 1}", { a: "x", b: "y" })).toBe("x and y and {c: 1}");
    const prompt = systemPrompt({ template: "Hi {name}. {knowledge}", values: { name: "Ann" }, knowledge: "K", quote: true });
    expect(prompt.startsWith("# Citation requirements")).toBe(true);
    expect(prompt.endsWith("Hi Ann. K")).toBe(true);
    expect(systemPrompt({ template: "Hi {name}. {knowledge}", values: { name: "Ann" }, knowledge: "K", quote: false })).toBe("Hi Ann. K");
  });

  it("needs every required variable (Miss parameter), blanks missing optional ones, and never asks for knowledge", () => {
    const parameters = [
      { key: "knowledge", optional: false },
      { key: "company", optional: false },
      { key: "tone", optional: true },
    ];
    expect(variableValues(parameters, { company: "Acme" })).toEqual({ company: "Acme", tone: " " });
    expect(() => variableValues(parameters, {})).toThrow("Miss parameter: company");
  });
});

describe("citations", () => {
  it("repairs other shapes into [ID:n] and drops ids that name no chunk", () => {
    expect(repairCitations("A (ID: 1). B [ID: 0]. C 【ID:1】. D [ID:7].", 2)).toBe("A [ID:1]. B [ID:0]. C [ID:1]. D .");
  });

  it("adds citations to sentences a chunk supports when the model cited nothing", () => {
    expect(insertCitations("The gravitational pull of the moon causes tides. I like it.", HITS)).toBe("The gravitational pull of the moon causes tides. [ID:0] I like it.");
    expect(insertCitations("Already cited [ID:1].", HITS)).toBe("Already cited [ID:1].");
  });

  it("removes citations when quotes are off", () => {
    expect(finalAnswer("Moon [ID:0].", HITS, false)).toBe("Moon.");
  });

  it("aggregates the cited documents only (all of them when none is cited)", () => {
    expect(referenceOf(HITS, { total: 2 }, "x [ID:1]").doc_aggs).toEqual([{ doc_name: "bread.txt", doc_id: "d2", count: 1 }]);
    expect(referenceOf(HITS, { total: 5 }, "x").doc_aggs).toHaveLength(2);
    expect(referenceOf(HITS, { total: 5 }).total).toBe(5);
  });
});

describe("Python json.dumps for SSE frames", () => {
  it("uses Python's separators, keeps non-ASCII, and prints floats with a point", () => {
    expect(pythonJson({ code: 0, data: { answer: "héllo \"x\"\n", reference: [], ok: true, none: null, at: pyFloat(3), n: 1.5, list: [1, "a"] } })).toBe(
      '{"code": 0, "data": {"answer": "héllo \\"x\\"\\n", "reference": [], "ok": true, "none": null, "at": 3.0, "n": 1.5, "list": [1, "a"]}}',
    );
  });
});
