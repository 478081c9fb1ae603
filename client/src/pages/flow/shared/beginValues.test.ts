import { describe, expect, test } from "@jest/globals";
import { askedInputs, checkValues, emptyValues, fileProblem, greetingOf, INPUT_FILE_MAX_BYTES, runInputs, visitorProblems } from "./beginValues";

/** A run (the editor's run panel, a shared flow's page) asks for Begin's inputs by type, checks the required ones, and sends them typed. */

const params = {
  prologue: "Hello {begin@name}, ask away.",
  query: [
    { key: "name", name: "Your name", type: "line", optional: false },
    { key: "notes", type: "paragraph", optional: true },
    { key: "lang", name: "Language", type: "options", options: ["English", "Chinese"] },
    { key: "count", name: "How many", type: "integer", optional: true },
    { key: "formal", name: "Formal", type: "boolean" },
    { key: "doc", name: "Document", type: "file", optional: true },
    { key: "", name: "no key" },
    "nonsense",
    { key: "odd", type: "unknown-type" },
  ],
};

describe("Begin's inputs", () => {
  test("are read from its params: name defaults to the key, an unknown type is a line, keyless ones are left out", () => {
    expect(askedInputs(params)).toEqual([
      { key: "name", name: "Your name", type: "line", optional: false, options: [] },
      { key: "notes", name: "notes", type: "paragraph", optional: true, options: [] },
      { key: "lang", name: "Language", type: "options", optional: false, options: ["English", "Chinese"] },
      { key: "count", name: "How many", type: "integer", optional: true, options: [] },
      { key: "formal", name: "Formal", type: "boolean", optional: false, options: [] },
      { key: "doc", name: "Document", type: "file", optional: true, options: [] },
      { key: "odd", name: "odd", type: "line", optional: false, options: [] },
    ]);
    expect(askedInputs({})).toEqual([]);
    expect(askedInputs(null)).toEqual([]);
  });

  test("required ones left empty, a number that is not whole and an option not offered are refused; optional ones may stay empty", () => {
    const inputs = askedInputs(params);
    const values = { ...emptyValues(inputs), count: "2.5", lang: "Klingon" };
    expect(checkValues(inputs, values)).toEqual({
      name: { key: "flow.run.inputs.required", params: { name: "Your name" } },
      lang: { key: "flow.run.inputs.option", params: { name: "Language" } },
      count: { key: "flow.run.inputs.integer", params: { name: "How many" } },
      odd: { key: "flow.run.inputs.required", params: { name: "odd" } },
    });
    expect(checkValues(inputs, { ...values, name: "Ada", lang: "English", count: " 3 ", odd: "x" })).toEqual({});
  });

  test("are sent typed: whole numbers as numbers, switches as booleans, empty optional ones not at all", () => {
    const inputs = askedInputs(params);
    const values = { ...emptyValues(inputs), name: "Ada", lang: "English", count: " 3 ", odd: "x", doc: "file text" };
    expect(runInputs(inputs, values)).toEqual({ name: "Ada", lang: "English", count: 3, formal: false, odd: "x", doc: "file text" });
  });

  test("fill the greeting shown before the flow speaks", () => {
    expect(greetingOf(params.prologue, { name: "Ada" })).toBe("Hello Ada, ask away.");
    expect(greetingOf(params.prologue, {})).toBe("Hello {begin@name}, ask away.");
    expect(greetingOf(undefined, {})).toBe("");
  });

  test("a file larger than an upload may be is refused before it is sent", () => {
    expect(fileProblem("a.pdf", INPUT_FILE_MAX_BYTES)).toBeNull();
    expect(fileProblem("big.pdf", INPUT_FILE_MAX_BYTES + 1)).toEqual({ key: "flow.run.inputs.fileTooBig", params: { name: "big.pdf", max: "10 MB" } });
  });
  test("on a shared flow's page, start at each list's first option and tell the visitor what to fill in, a required file being impossible there", () => {
    const inputs = askedInputs(params);
    const required = inputs.filter((input) => ["name", "lang", "formal"].includes(input.key)).concat({ key: "scan", name: "Scan", type: "file", optional: false, options: [] });
    const values = emptyValues(required, { firstOption: true });
    expect(values).toEqual({ name: "", lang: "English", formal: false, scan: "" });
    expect(visitorProblems(required, values)).toEqual({ name: { key: "flow.publish.shared.inputRequired" }, scan: { key: "flow.publish.shared.fileUnavailable" } });
  });
});
