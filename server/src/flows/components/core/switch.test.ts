import { validate } from "../../../platform/param-spec";
import { runComponent } from "../../testing/run-component";
import { compare, Switch, switchOperator, SWITCH_OPERATORS } from "./switch";

const route = async (conditions: unknown[], variables: Record<string, string>, end_cpn_id = "else") =>
  (await runComponent(Switch, { params: { conditions, end_cpn_id }, variables })).output.next;

describe("Switch", () => {
  it("reads every operator of spec §9 under its own name and RAGFlow's spellings", () => {
    const spellings: Record<string, string[]> = {
      equal: ["equal", "=", "=="],
      notEqual: ["notEqual", "≠", "!="],
      gt: ["gt", ">"],
      ge: ["ge", "≥", ">="],
      lt: ["lt", "<"],
      le: ["le", "≤", "<="],
      contains: ["contains"],
      notContains: ["notContains", "not contains"],
      startWith: ["startWith", "start with"],
      endWith: ["endWith", "end with"],
      empty: ["empty"],
      notEmpty: ["notEmpty", "not empty"],
    };
    expect(Object.keys(spellings)).toEqual([...SWITCH_OPERATORS]);
    for (const [operator, written] of Object.entries(spellings)) for (const spelling of written) expect({ spelling, operator: switchOperator(spelling) }).toEqual({ spelling, operator });
    expect(switchOperator("resembles")).toBeUndefined();
  });

  it("compares text case-insensitively, and numbers as numbers when both sides are numbers", () => {
    expect(compare("equal", "Yes", "yes")).toBe(true);
    expect(compare("notEqual", "Yes", "no")).toBe(true);
    expect(compare("gt", "10", "9")).toBe(true); // as text "10" < "9"
    expect(compare("ge", "3.0", "3")).toBe(true);
    expect(compare("lt", "2", "10")).toBe(true);
    expect(compare("le", "apple", "Banana")).toBe(true);
    expect(compare("gt", "b", "A")).toBe(true);
    expect(compare("contains", "An ERROR occurred", "error")).toBe(true);
    expect(compare("notContains", "fine", "error")).toBe(true);
    expect(compare("startWith", "SELECT 1", "select")).toBe(true);
    expect(compare("endWith", "done.", "DONE.")).toBe(true);
    expect(compare("empty", "  ", "")).toBe(true);
    expect(compare("notEmpty", "x", "")).toBe(true);
    expect(compare("equal", "1", "one")).toBe(false);
  });

  it("goes to the first case whose items all hold (and) or any holds (or), else to ELSE", async () => {
    const conditions = [
      { logical_operator: "and", items: [{ cpn_id: "gen", operator: "contains", value: "yes" }, { cpn_id: "gen", operator: "not contains", value: "but" }], to: "first" },
      { logical_operator: "or", items: [{ cpn_id: "gen", operator: "contains", value: "maybe" }, { cpn_id: "begin@age", operator: "≥", value: "18" }], to: "second" },
    ];
    expect(await route(conditions, { gen: "yes indeed", "begin@age": "3" })).toEqual(["first"]);
    expect(await route(conditions, { gen: "yes but", "begin@age": "30" })).toEqual(["second"]);
    expect(await route(conditions, { gen: "no", "begin@age": "3" })).toEqual(["else"]);
    expect(await route(conditions, { gen: "no", "begin@age": "3" }, "")).toEqual([]);
    // A component that has not run reads as empty.
    expect(await route([{ items: [{ cpn_id: "later", operator: "empty" }], to: "first" }], {})).toEqual(["first"]);
  });

  it("offers a port per case and ELSE, as the editor's handles", () => {
    expect(Switch.routes!({ conditions: [{ items: [], to: "a" }, { items: [] }], end_cpn_id: "b" })).toEqual([
      { handle: "Case 1", target: "a", label: "Case 1", literal: true },
      { handle: "Case 2", target: null, label: "Case 2", literal: true },
      { handle: "end_cpn_id", target: "b", label: "flow.components.Switch.else" },
    ]);
  });

  it("refuses malformed cases: an unknown operator, a missing component, a bad logical operator", () => {
    const errors = validate(Switch.params, {
      conditions: [{ logical_operator: "xor", items: [{ cpn_id: "", operator: "=" }, { cpn_id: "a", operator: "resembles" }], to: "x" }, "nope"],
    });
    expect(errors.map((e) => [e.path, e.messageKey])).toEqual([
      ["conditions.0.logical_operator", "flow.components.Switch.errors.logicalOperator"],
      ["conditions.0.items.0.cpn_id", "flow.components.Switch.errors.itemComponent"],
      ["conditions.0.items.1.operator", "flow.components.Switch.errors.operator"],
      ["conditions.1", "flow.components.Switch.errors.conditions"],
    ]);
  });
});
