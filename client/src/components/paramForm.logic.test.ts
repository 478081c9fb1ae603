/// <reference types="jest" />
import { changedValues, checkDraft, draftOf, groupsOf, isShown, valuesOf, withDefaults, type ParamSpecView } from "./paramForm.logic";

const spec = (partial: Partial<ParamSpecView> & Pick<ParamSpecView, "key" | "type">): ParamSpecView => ({
  label: `l.${partial.key}`,
  required: false,
  nullable: false,
  trimmed: false,
  options: [],
  show: [],
  hide: [],
  ...partial,
});

const ON = [{ key: "on", values: [true] }];
const SPECS: ParamSpecView[] = [
  spec({ key: "size", type: "integer", min: 1, max: 2048, default: 512, required: true, group: "g.parsing" }),
  spec({ key: "delimiter", type: "string", minLength: 1, default: "\\n", required: true, group: "g.parsing" }),
  spec({ key: "pages", type: "json", default: null, nullable: true }),
  spec({
    key: "summary",
    type: "object",
    params: [
      spec({ key: "on", type: "boolean", default: false }),
      spec({ key: "prompt", type: "text", minLength: 1, trimmed: true, required: true, default: "Summarize {x}", show: ON }),
      spec({ key: "threshold", type: "number", min: 0, max: 1, default: 0.1, required: true, show: ON }),
    ],
  }),
];

describe("ParamForm's logic", () => {
  it("starts from the server's defaults, numbers as text, and keeps what it does not declare", () => {
    expect(draftOf(SPECS, { size: 256, extra: "kept", summary: { on: true, stored: 1 } })).toEqual({
      size: "256",
      delimiter: "\\n",
      pages: null,
      extra: "kept",
      summary: { on: true, prompt: "Summarize {x}", threshold: "0.1", stored: 1 },
    });
    expect(withDefaults(SPECS, {}).summary).toEqual({ on: false, prompt: "Summarize {x}", threshold: 0.1 });
  });

  it("shows a parameter only while its display conditions hold", () => {
    const prompt = SPECS[3].params![1];
    expect(isShown(prompt, { on: false })).toBe(false);
    expect(isShown(prompt, { on: true })).toBe(true);
    expect(isShown(spec({ key: "x", type: "string", hide: ON }), { on: true })).toBe(false);
  });

  it("checks the shown parameters against the declared limits, keyed by path", () => {
    const draft = draftOf(SPECS, { size: 4096, delimiter: "", summary: { on: false, threshold: 7 } });
    expect(checkDraft(SPECS, draft, "parserConfig.")).toEqual({
      "parserConfig.size": { key: "errors.param.between", params: { min: 1, max: 2048 } },
      "parserConfig.delimiter": { key: "errors.param.required" },
    });
    const on = { ...draft, size: "1.5", delimiter: ",", summary: { ...(draft.summary as object), on: true, prompt: "  " } };
    expect(checkDraft(SPECS, on)).toEqual({
      size: { key: "errors.param.integer" },
      "summary.prompt": { key: "errors.param.required" },
      "summary.threshold": { key: "errors.param.between", params: { min: 0, max: 1 } },
    });
  });

  it("sends only what changed, numbers as numbers, an object with its shown parameters", () => {
    const initial = draftOf(SPECS, { size: 512, summary: { on: true, prompt: "P", threshold: 0.5, stored: 1 } });
    expect(changedValues(SPECS, initial, initial)).toEqual({});
    expect(changedValues(SPECS, { ...initial, size: "1024" }, initial)).toEqual({ size: 1024 });
    const off = { ...initial, summary: { ...(initial.summary as object), on: false } };
    expect(changedValues(SPECS, off, initial)).toEqual({ summary: { on: false, stored: 1 } });
    expect(valuesOf(SPECS, { size: "" }).size).toBeNull();
  });

  it("groups consecutive parameters of one group", () => {
    expect(groupsOf(SPECS).map(({ group, specs }) => [group, specs.map((s) => s.key)])).toEqual([
      ["g.parsing", ["size", "delimiter"]],
      [null, ["pages"]],
      [null, ["summary"]],
    ]);
  });
});
