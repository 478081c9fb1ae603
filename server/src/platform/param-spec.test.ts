import { isVisible, specProblems, validate, withDefaults, type ParamSpec } from "./param-spec";

const SPECS: ParamSpec[] = [
  { key: "mode", type: "select", label: "l.mode", options: [{ value: "fast" }, { value: "exact" }], default: "fast" },
  { key: "depth", type: "integer", label: "l.depth", min: 1, max: 8, default: 2, required: true, displayOptions: { show: { mode: ["exact"] } } },
  { key: "name", type: "string", label: "l.name", required: true, pattern: "^[a-z]+$" },
  { key: "endpoint", type: "url", label: "l.endpoint", nullable: true, default: null },
  { key: "tags", type: "list", label: "l.tags", default: [] },
  {
    key: "advanced",
    type: "object",
    label: "l.advanced",
    params: [
      { key: "on", type: "boolean", label: "l.on", default: false },
      { key: "ratio", type: "number", label: "l.ratio", min: 0, max: 1, default: 0.5, displayOptions: { hide: { on: [false] } } },
      { key: "note", type: "text", label: "l.note", minLength: 1, trimmed: true, default: "x" },
    ],
  },
  {
    key: "even",
    type: "integer",
    label: "l.even",
    check: (value) => ((value as number) % 2 === 0 ? [] : [{ code: "even", messageKey: "errors.test.even" }]),
  },
];

const codes = (values: Record<string, unknown>, options = {}) => validate(SPECS, values, options).map((e) => `${e.path}:${e.code}`);

describe("ParamSpec", () => {
  it("fills missing values with defaults, objects recursively, and keeps keys it does not know", () => {
    expect(withDefaults(SPECS, { advanced: { on: true }, extra: 1 })).toEqual({
      mode: "fast",
      depth: 2,
      endpoint: null,
      tags: [],
      advanced: { on: true, ratio: 0.5, note: "x" },
      extra: 1,
    });
  });

  it("shows a parameter when its siblings hold the listed values and hides it when they hold a hidden one", () => {
    const depth = SPECS[1];
    expect(isVisible(depth, withDefaults(SPECS, {}))).toBe(false);
    expect(isVisible(depth, withDefaults(SPECS, { mode: "exact" }))).toBe(true);
    const ratio = SPECS[5].params![1];
    expect(isVisible(ratio, { on: false })).toBe(false);
    expect(isVisible(ratio, { on: true })).toBe(true);
  });

  it("refuses wrong types, values out of range, unknown options and patterns, with message keys and limits", () => {
    const errors = validate(SPECS, { mode: "slow", depth: 9, name: "Ab", endpoint: "ftp://x", tags: ["a", 2], even: 1.5 });
    expect(errors.map((e) => [e.code, e.messageKey, e.params])).toEqual([
      ["option", "errors.param.option", { field: "mode", options: ["fast", "exact"] }],
      ["max", "errors.param.max", { field: "depth", limit: 8 }],
      ["pattern", "errors.param.pattern", { field: "name", pattern: "^[a-z]+$" }],
      ["url", "errors.param.url", { field: "endpoint" }],
      ["type", "errors.param.type", { field: "tags.1", expected: "string" }],
      ["type", "errors.param.type", { field: "even", expected: "integer" }],
    ]);
  });

  it("checks nested objects and runs a custom rule only on a value of the right type", () => {
    expect(codes({ name: "a", advanced: { ratio: -1, note: "  " }, even: 3 })).toEqual(["advanced.ratio:min", "advanced.note:minLength", "even:even"]);
    expect(validate(SPECS, { name: "a", even: 3 })[0].messageKey).toBe("errors.test.even");
    expect(codes({ name: "a", advanced: [] })).toEqual(["advanced:type"]);
  });

  it("requires a visible required value, not a hidden one, and nothing in a patch", () => {
    expect(codes({})).toEqual(["name:required"]);
    expect(codes({ name: " " })).toEqual(["name:required"]);
    expect(codes({ name: "a", mode: "fast", depth: null })).toEqual([]);
    expect(codes({ name: "a", mode: "exact", depth: null })).toEqual(["depth:required"]);
    expect(codes({}, { partial: true })).toEqual([]);
  });

  it("keeps unknown keys unless strict, and accepts null where nullable", () => {
    expect(codes({ name: "a", surprise: 1, endpoint: null })).toEqual([]);
    expect(codes({ name: "a", surprise: 1, advanced: { what: 2 } }, { strict: true })).toEqual(["surprise:unknown", "advanced.what:unknown"]);
  });

  it("finds mistakes in declarations: duplicate keys, defaults that fail, conditions on unknown siblings", () => {
    expect(specProblems(SPECS)).toEqual([]);
    expect(
      specProblems([
        { key: "a", type: "integer", label: "l", min: 3, default: 1 },
        { key: "a", type: "boolean", label: "l" },
        { key: "b", type: "select", label: "l", displayOptions: { show: { nope: [1] } } },
      ]),
    ).toEqual(["a: default fails min at a", "a: duplicate key", "b: displayOptions names unknown nope", "b: no options"]);
  });
});
