import { expect, test } from "@jest/globals";
import { remarkCitations, withoutCitations } from "./citations";

/** RAGFlow's `[ID:n]` markers become citation nodes in the answer, and disappear when it is read aloud or copied. */

test("markers in text become citation nodes; code keeps them as written", () => {
  const tree = {
    type: "root",
    children: [
      { type: "paragraph", children: [{ type: "text", value: "Fees are paid on departure [ID:0] in cash [ID: 2]." }] },
      { type: "inlineCode", value: "[ID:1]" },
    ],
  };
  remarkCitations()(tree);
  expect(tree.children[0].children).toEqual([
    { type: "text", value: "Fees are paid on departure " },
    { type: "citation", data: { hName: "sup", hProperties: { dataCitation: "0" } } },
    { type: "text", value: " in cash " },
    { type: "citation", data: { hName: "sup", hProperties: { dataCitation: "2" } } },
    { type: "text", value: "." },
  ]);
  expect(tree.children[1]).toEqual({ type: "inlineCode", value: "[ID:1]" });
});

test("an answer without its markers", () => {
  expect(withoutCitations("Paid on departure [ID:0][ID: 1].")).toBe("Paid on departure .");
});
