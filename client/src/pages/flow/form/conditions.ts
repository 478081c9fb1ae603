import { listOf, removeAt, replaceAt } from "./variables";

/**
 * Switch's cases (server/src/flows/components/core/switch.ts): `conditions` is a list of
 * `{logical_operator: "and" | "or", items: [{cpn_id, operator, value}], to}`; case n is the port "Case n" and
 * `to` is where its edge leads (drawn on the canvas, kept here as it is).
 */

/**
 * The operators of spec §9, in its order, by the names the server stores (SWITCH_OPERATORS); their texts are
 * `flow.components.Switch.operators.<name>`.
 */
export const OPERATORS = ["contains", "notContains", "startWith", "endWith", "empty", "notEmpty", "equal", "notEqual", "gt", "lt", "ge", "le"] as const;
export type Operator = (typeof OPERATORS)[number];

/** The operators that compare with nothing. */
const VALUELESS: readonly Operator[] = ["empty", "notEmpty"];

/** RAGFlow's other spellings, as the server reads them (switch.ts SPELLINGS), so that an imported case shows its operator. */
const SPELLINGS: Record<string, Operator> = {
  "=": "equal", "==": "equal", equals: "equal", eq: "equal",
  "≠": "notEqual", "!=": "notEqual", ne: "notEqual",
  ">": "gt", "≥": "ge", ">=": "ge", "<": "lt", "≤": "le", "<=": "le",
  startswith: "startWith", endswith: "endWith", isempty: "empty", isnotempty: "notEmpty",
};

export interface ConditionItem {
  cpn_id: string;
  operator: string;
  value: string;
}

export interface SwitchCase {
  logical_operator: "and" | "or";
  items: ConditionItem[];
  to: string;
}

/** The operator a stored spelling names, or undefined for one the server does not know either. */
export function operatorOf(spelling: string): Operator | undefined {
  const squashed = spelling.toLowerCase().replace(/[\s_-]+/g, "");
  return OPERATORS.find((operator) => operator.toLowerCase() === squashed) ?? SPELLINGS[squashed];
}

export const takesValue = (operator: string) => !VALUELESS.includes(operatorOf(operator) as Operator);

export function casesOf(value: unknown): SwitchCase[] {
  return listOf(value).map((condition) => ({
    logical_operator: condition.logical_operator === "or" ? "or" : "and",
    items: listOf(condition.items).map((item) => ({ cpn_id: String(item.cpn_id ?? ""), operator: String(item.operator ?? "equal"), value: String(item.value ?? "") })),
    to: typeof condition.to === "string" ? condition.to : "",
  }));
}

const newItem = (): ConditionItem => ({ cpn_id: "", operator: "equal", value: "" });

export function addCase(cases: SwitchCase[]): SwitchCase[] {
  return [...cases, { logical_operator: "and", items: [newItem()], to: "" }];
}

export function removeCase(cases: SwitchCase[], index: number): SwitchCase[] {
  return removeAt(cases, index);
}

export function setLogic(cases: SwitchCase[], index: number, logic: SwitchCase["logical_operator"]): SwitchCase[] {
  return replaceAt(cases, index, { ...cases[index], logical_operator: logic });
}

export function addItem(cases: SwitchCase[], index: number): SwitchCase[] {
  return replaceAt(cases, index, { ...cases[index], items: [...cases[index].items, newItem()] });
}

export function removeItem(cases: SwitchCase[], index: number, item: number): SwitchCase[] {
  return replaceAt(cases, index, { ...cases[index], items: removeAt(cases[index].items, item) });
}

/** One item changed; an operator that compares with nothing clears the value, and a stored spelling is written by its name. */
export function setItem(cases: SwitchCase[], index: number, item: number, patch: Partial<ConditionItem>): SwitchCase[] {
  const current = cases[index].items[item];
  const next = { ...current, ...patch };
  if (patch.operator !== undefined) {
    next.operator = operatorOf(patch.operator) ?? patch.operator;
    if (!takesValue(next.operator)) next.value = "";
  }
  return replaceAt(cases, index, { ...cases[index], items: replaceAt(cases[index].items, item, next) });
}

/**
 * The ports a change of cases renames, for the canvas to move its edges: case n is "Case n", so removing a case
 * moves the later ones up (their edges follow) and the removed one's edge goes.
 */
export function portsAfterRemoval(count: number, removed: number): Record<string, string | null> {
  const renames: Record<string, string | null> = { [`Case ${removed + 1}`]: null };
  for (let i = removed + 1; i < count; i++) renames[`Case ${i + 1}`] = `Case ${i}`;
  return renames;
}
