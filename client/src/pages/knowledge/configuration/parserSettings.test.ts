/// <reference types="jest" />
import type { ParamSpecView } from "../../../components/paramForm.logic";
import { checkParserDraft, parserConfigPatch, parserDraftOf, withMethod } from "./parserSettings";

const spec = (partial: Partial<ParamSpecView> & Pick<ParamSpecView, "key" | "type">): ParamSpecView => ({ label: "l", required: false, nullable: false, trimmed: false, options: [], show: [], hide: [], ...partial });

// Shaped like the server's General and Knowledge Graph methods (ingestion/chunkers/parser-params.ts).
const LAYOUT = spec({ key: "layout_recognize", type: "string", default: "DeepDOC", options: [{ value: "DeepDOC" }, { value: "Plain Text" }], widget: "segmented" });
const NAIVE = [
  LAYOUT,
  spec({ key: "chunk_token_num", type: "integer", min: 1, max: 2048, default: 512, required: true }),
  spec({ key: "delimiter", type: "string", minLength: 1, default: "\\n", required: true }),
  spec({ key: "pages", type: "json", default: null, nullable: true, widget: "pageRanges" }),
];
const GRAPH = [spec({ key: "graphrag", type: "object", params: [spec({ key: "entity_types", type: "list", default: ["person"], widget: "tags" })] })];

describe("parser settings", () => {
  it("shows a stored newline as \\n, a layout it does not offer as the default, and pages as pairs of text", () => {
    const draft = withMethod(NAIVE, parserDraftOf({ delimiter: "\n", layout_recognize: "some-vision-model", pages: [[1, 5]] }));
    expect(draft).toMatchObject({ delimiter: "\\n", layout_recognize: "DeepDOC", chunk_token_num: "512", pages: [{ from: "1", to: "5" }] });
  });

  it("reads the knowledge_graph method's entity types from the top level until they are edited under graphrag", () => {
    expect(withMethod(GRAPH, parserDraftOf({ entity_types: ["event"], graphrag: { use_graphrag: false } })).graphrag).toEqual({ use_graphrag: false, entity_types: ["event"] });
    expect(withMethod(GRAPH, parserDraftOf({ entity_types: ["event"], graphrag: { entity_types: ["time"] } })).graphrag).toEqual({ entity_types: ["time"] });
  });

  it("checks limits from the specs and page ranges in RAGFlow's words", () => {
    const draft = { ...withMethod(NAIVE, parserDraftOf({})), chunk_token_num: "4096", pages: [{ from: "5", to: "3" }, { from: "", to: "9" }] };
    expect(checkParserDraft(NAIVE, draft)).toEqual({
      "parserConfig.chunk_token_num": { key: "errors.param.between", params: { min: 1, max: 2048 } },
      "parserConfig.pages.0.1": { key: "kb.pages.afterFrom" },
      "parserConfig.pages.1.0": { key: "kb.pages.missingFrom" },
    });
  });

  it("sends only what changed since the stored config, pages as number pairs or null, entity types with the rest of graphrag", () => {
    const stored = { chunk_token_num: 512, delimiter: "\n", pages: [[1, 5]] };
    const draft = withMethod(NAIVE, parserDraftOf(stored));
    expect(parserConfigPatch(NAIVE, draft, stored)).toEqual({});
    expect(parserConfigPatch(NAIVE, { ...draft, chunk_token_num: "256", pages: [] }, stored)).toEqual({ chunk_token_num: 256, pages: null });
    const graphStored = { entity_types: ["event"], graphrag: { use_graphrag: false } };
    const graphDraft = withMethod(GRAPH, parserDraftOf(graphStored));
    expect(parserConfigPatch(GRAPH, { ...graphDraft, graphrag: { ...(graphDraft.graphrag as object), entity_types: ["event", "time"] } }, graphStored)).toEqual({
      graphrag: { use_graphrag: false, entity_types: ["event", "time"] },
    });
  });
});
