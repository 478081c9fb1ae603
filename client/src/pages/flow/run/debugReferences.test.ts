import { expect, test } from "@jest/globals";
import { debugReferences } from "./debugReferences";

/** Running one node alone asks a value for each reference its params hold, the default input apart. */

test("placeholders in texts and component ids of variables, each once, in the order written", () => {
  const params = {
    prompt: "Answer {sys.query} in {begin@lang} from {Retrieval:Blue}. Input: {input}",
    query: [
      { type: "reference", component_id: "Retrieval:Blue" },
      { type: "reference", component_id: "Categorize:Red@output" },
    ],
    conditions: [{ items: [{ cpn_id: "sys.query", operator: "contains", value: "{not a ref}" }] }],
    temperature: 0.1,
    empty: { component_id: "" },
  };
  expect(debugReferences(params)).toEqual(["sys.query", "begin@lang", "Retrieval:Blue", "Categorize:Red@output"]);
});

test("a component whose params refer to nothing asks for nothing but its input", () => {
  expect(debugReferences({ content: "Hello {input}", top_n: 8 })).toEqual([]);
});
