import { expect, test } from "@jest/globals";
import type { KnowledgeBaseSettingsFragment } from "../../../graphql/gql/graphql";
import { checkRetrieval, defaultsOf, retrievalInputOf, sameSettings } from "./retrievalSettings";

const TOP_K = { min: 1, max: 2048 };

/** The retrieval test's form: it starts from the knowledge base's settings, refuses what the server would, and asks for one page. */

const kb = { similarityThreshold: 0.2, vectorSimilarityWeight: 0.3, rerankModel: null, topK: 1024 } as KnowledgeBaseSettingsFragment;

test("a test starts from the knowledge base's own settings, and knows when they were changed", () => {
  const defaults = defaultsOf(kb);
  expect(defaults).toEqual({ similarityThreshold: 0.2, vectorSimilarityWeight: 0.3, rerankModel: "", topK: "1024", crossLanguages: [] });
  expect(sameSettings({ ...defaults, topK: " 1024 " }, defaults)).toBe(true);
  expect(sameSettings({ ...defaults, crossLanguages: ["English"] }, defaults)).toBe(false);
});

test("a question is required and top K is a whole number in range", () => {
  const settings = defaultsOf(kb);
  expect(checkRetrieval("Where do ships dock?", settings, TOP_K)).toEqual({});
  expect(checkRetrieval("  ", { ...settings, topK: String(TOP_K.max + 1) }, TOP_K)).toEqual({
    question: { key: "retrievalTest.questionRequired" },
    topK: { key: "errors.knowledge.between", params: TOP_K },
  });
  expect(checkRetrieval("q", { ...settings, topK: "2.5" }, TOP_K).topK).toBeDefined();
});

test("a page of a run asks for the chosen documents only, and leaves out what is unset", () => {
  const run = { question: "Where do ships dock?", settings: { ...defaultsOf(kb), topK: "64" } };
  expect(retrievalInputOf(run, "kb-1", [], 2, 10)).toEqual({
    question: "Where do ships dock?",
    knowledgeBaseIds: ["kb-1"],
    documentIds: null,
    similarityThreshold: 0.2,
    vectorSimilarityWeight: 0.3,
    rerankModel: null,
    topK: 64,
    page: 2,
    pageSize: 10,
    crossLanguages: null,
  });
  const narrowed = retrievalInputOf({ ...run, settings: { ...run.settings, rerankModel: "bge@Builtin", crossLanguages: ["Chinese"] } }, "kb-1", ["d-1"], 1, 10);
  expect(narrowed).toMatchObject({ documentIds: ["d-1"], rerankModel: "bge@Builtin", crossLanguages: ["Chinese"] });
});
