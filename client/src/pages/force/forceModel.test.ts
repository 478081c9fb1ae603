import { expect, test } from "@jest/globals";
import { chunkPagePath, documentPath, drawingOf, entityOf, idOf, initialKnowledgeBases, MAX_KNOWLEDGE_BASES, mentionIn, toggledKnowledgeBase } from "./forceModel";

/** /force's own logic: what is drawn, which knowledge bases a view starts with, and where a mentioning chunk leads. */

test("the view is drawn with nodes sized by degree, and a node id names its entity even when the name has a colon", () => {
  const { nodes, edges } = drawingOf(
    [{ id: "kb1:Port: east", knowledgeBaseId: "kb1", name: "Port: east", type: "", degree: 3 }],
    [{ source: "kb1:Port: east", target: "kb1:Ship", weight: 2, description: "moors" }],
  );
  expect(nodes).toEqual([{ id: "kb1:Port: east", name: "Port: east", type: "unknown", description: "", rank: 3 }]);
  expect(edges).toEqual([{ source: "kb1:Port: east", target: "kb1:Ship", weight: 2, description: "moors" }]);
  expect(entityOf("kb1:Port: east")).toEqual({ knowledgeBaseId: "kb1", name: "Port: east" });
  expect(idOf({ knowledgeBaseId: "kb1", name: "Port: east" })).toBe("kb1:Port: east");
  expect(entityOf("no-colon")).toBeNull();
});

test("a view starts with the knowledge bases the address names that still have a graph, else the largest graph", () => {
  const withGraphs = [{ id: "big" }, { id: "small" }];
  expect(initialKnowledgeBases("small,gone,small", withGraphs)).toEqual(["small"]);
  expect(initialKnowledgeBases("gone", withGraphs)).toEqual(["big"]);
  expect(initialKnowledgeBases(null, withGraphs)).toEqual(["big"]);
  expect(initialKnowledgeBases(null, [])).toEqual([]);
});

test("ticking knowledge bases keeps at least one and at most the server's cap", () => {
  expect(toggledKnowledgeBase(["a"], "b")).toEqual(["a", "b"]);
  expect(toggledKnowledgeBase(["a", "b"], "a")).toEqual(["b"]);
  expect(toggledKnowledgeBase(["a"], "a")).toEqual(["a"]);
  const full = Array.from({ length: MAX_KNOWLEDGE_BASES }, (_, i) => `kb${i}`);
  expect(toggledKnowledgeBase(full, "one-more")).toEqual(full);
});

test("a mentioning chunk opens its document's chunk page searched for the entity, or the document at the chunk", () => {
  expect(chunkPagePath("kb1", "doc1", "Anna Berg & co")).toBe("/knowledge/dataset/chunk?id=kb1&doc=doc1&search=Anna+Berg+%26+co");
  expect(documentPath("doc1", "c1", 3)).toBe("/document/doc1?page=3&chunk=c1");
  expect(documentPath("doc1", "c1", null)).toBe("/document/doc1?chunk=c1");
});

test("a chunk is shown around its first mention of the name, whatever its case", () => {
  const text = `${"a".repeat(300)} the LIGHTHOUSE bell ${"b".repeat(300)}`;
  const mention = mentionIn(text, "lighthouse", 20);
  expect(mention.match).toBe("LIGHTHOUSE");
  expect(mention.before).toBe(`…${"a".repeat(15)} the `);
  expect(mention.after).toBe(` bell ${"b".repeat(14)}…`);
  expect(mentionIn("short text", "absent")).toEqual({ before: "short text", match: "", after: "" });
});
