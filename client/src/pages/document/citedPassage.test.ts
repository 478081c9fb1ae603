import { expect, test } from "@jest/globals";
import { locatePassage } from "./citedPassage";

/** A cited chunk is found in its document's text although parsing rejoined its whitespace and dropped its markers. */

const TEXT = "# Harbour rules\n\nShips   must report\nto the harbour master before docking.\nFees are paid on departure, in cash or by card.";

const cited = (text: string, passage: string) => {
  const span = locatePassage(text, passage);
  return span && text.slice(span[0], span[1]);
};

test("a chunk is found whatever its whitespace and case", () => {
  expect(cited(TEXT, "ships must report to the HARBOUR master")).toBe("Ships   must report\nto the harbour master");
});

test("a chunk whose middle differs is placed by its first and last sentences", () => {
  const passage = "- Ships must report to the harbour master before docking.\nA sentence the parser wrote differently.\nFees are paid on departure, in cash or by card.";
  expect(cited(TEXT, passage)).toBe("Ships   must report\nto the harbour master before docking.\nFees are paid on departure, in cash or by card.");
});

test("a chunk that is not in the text, or is empty, is not placed", () => {
  expect(locatePassage(TEXT, "Anchoring is forbidden in the inner basin at all times.")).toBeNull();
  expect(locatePassage(TEXT, "   ")).toBeNull();
});
