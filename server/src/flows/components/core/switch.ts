import type { ParamIssue } from "../../../platform/param-spec";
import type { ComponentDefinition, RoutePort } from "../../component";
import { DESCRIPTION } from "../../params";
import { isPlainObject } from "../../../platform/plain-object";

/** Spec §9's operators, by the names Cairn stores. */
export const SWITCH_OPERATORS = ["equal", "notEqual", "gt", "ge", "lt", "le", "contains", "notContains", "startWith", "endWith", "empty", "notEmpty"] as const;
export type SwitchOperator = (typeof SWITCH_OPERATORS)[number];

/** Every spelling RAGFlow's files use (v0.14 wrote "=", "≠", "not contains", "start with"…), lower-cased without spaces. */
const SPELLINGS: Record<string, SwitchOperator> = {
  "=": "equal", "==": "equal", equal: "equal", equals: "equal", eq: "equal",
  "≠": "notEqual", "!=": "notEqual", notequal: "notEqual", ne: "notEqual",
  ">": "gt", gt: "gt", "≥": "ge", ">=": "ge", ge: "ge",
  "<": "lt", lt: "lt", "≤": "le", "<=": "le", le: "le",
  contains: "contains", notcontains: "notContains",
  startwith: "startWith", startswith: "startWith", endwith: "endWith", endswith: "endWith",
  empty: "empty", isempty: "empty", notempty: "notEmpty", isnotempty: "notEmpty",
};

export function switchOperator(spelling: unknown): SwitchOperator | undefined {
  return typeof spelling === "string" ? SPELLINGS[spelling.toLowerCase().replace(/[\s_-]+/g, "")] : undefined;
}

const numberOf = (text: string): number | undefined => {
  const trimmed = text.trim();
  return trimmed !== "" && Number.isFinite(Number(trimmed)) ? Number(trimmed) : undefined;
};

/** One test: case-insensitive text, numbers compared as numbers when both sides are numbers. */
export function compare(operator: SwitchOperator, actual: string, expected: string): boolean {
  const a = actual.toLowerCase();
  const b = expected.toLowerCase();
  const x = numberOf(actual);
  const y = numberOf(expected);
  const order = x !== undefined && y !== undefined ? Math.sign(x - y) : a < b ? -1 : a > b ? 1 : 0;
  switch (operator) {
    case "equal":
      return order === 0;
    case "notEqual":
      return order !== 0;
    case "gt":
      return order > 0;
    case "ge":
      return order >= 0;
    case "lt":
      return order < 0;
    case "le":
      return order <= 0;
    case "contains":
      return a.includes(b);
    case "notContains":
      return !a.includes(b);
    case "startWith":
      return a.startsWith(b);
    case "endWith":
      return a.endsWith(b);
    case "empty":
      return actual.trim() === "";
    case "notEmpty":
      return actual.trim() !== "";
  }
}

interface SwitchItem {
  cpn_id: string;
  operator: string;
  value?: string;
}
interface SwitchCondition {
  logical_operator?: string;
  items: SwitchItem[];
  to?: string;
}

function conditionsOf(params: Record<string, unknown>): SwitchCondition[] {
  return Array.isArray(params.conditions) ? (params.conditions.filter((c) => isPlainObject(c) && Array.isArray(c.items)) as unknown as SwitchCondition[]) : [];
}

function checkConditions(value: unknown): ParamIssue[] {
  if (!Array.isArray(value)) return [{ code: "type", messageKey: "flow.components.Switch.errors.conditions" }];
  return value.flatMap((condition, i): ParamIssue[] => {
    if (!isPlainObject(condition) || !Array.isArray(condition.items)) return [{ path: String(i), code: "type", messageKey: "flow.components.Switch.errors.conditions", value: condition }];
    const logic = condition.logical_operator;
    const issues: ParamIssue[] = [];
    if (logic !== undefined && logic !== "" && logic !== "and" && logic !== "or") issues.push({ path: `${i}.logical_operator`, code: "option", messageKey: "flow.components.Switch.errors.logicalOperator", value: logic });
    condition.items.forEach((item, j) => {
      if (!isPlainObject(item) || typeof item.cpn_id !== "string" || item.cpn_id === "") issues.push({ path: `${i}.items.${j}.cpn_id`, code: "required", messageKey: "flow.components.Switch.errors.itemComponent" });
      else if (switchOperator(item.operator) === undefined) issues.push({ path: `${i}.items.${j}.operator`, code: "option", messageKey: "flow.components.Switch.errors.operator", params: { operator: String(item.operator) }, value: item.operator });
    });
    return issues;
  });
}

/** Routes to the first case whose items hold (all of them with "and", any with "or"), else to ELSE (`end_cpn_id`). */
export const Switch: ComponentDefinition = {
  name: "Switch",
  category: "core",
  icon: "LuSplit",
  params: [
    { key: "conditions", type: "json", label: "flow.components.Switch.params.conditions", default: [], widget: "switchConditions", check: checkConditions },
    { key: "end_cpn_id", type: "string", label: "flow.components.Switch.params.end_cpn_id", help: "flow.components.Switch.params.elseHelp", default: "", widget: "componentSelect" },
    DESCRIPTION,
  ],
  restrictedTargets: ["Begin"],
  routes(params) {
    const ports: RoutePort[] = conditionsOf(params).map((condition, i) => ({ handle: `Case ${i + 1}`, target: condition.to || null, label: `Case ${i + 1}`, literal: true }));
    const otherwise = typeof params.end_cpn_id === "string" && params.end_cpn_id !== "" ? params.end_cpn_id : null;
    return [...ports, { handle: "end_cpn_id", target: otherwise, label: "flow.components.Switch.else" }];
  },
  connect(params, handle, target) {
    if (handle === "end_cpn_id") return { ...params, end_cpn_id: target ?? "" };
    const index = Number(/^Case (\d+)$/.exec(handle)?.[1]) - 1;
    const conditions = conditionsOf(params);
    if (!(index >= 0 && index < conditions.length)) return params;
    return { ...params, conditions: conditions.map((condition, i) => (i === index ? { ...condition, to: target ?? "" } : condition)) };
  },
  checkInFlow(params, flow) {
    const known = (id: string) => id.startsWith("begin@") || id.startsWith("sys.") || Object.prototype.hasOwnProperty.call(flow.components, id.split("@")[0]);
    return conditionsOf(params).flatMap((condition, i) =>
      condition.items.flatMap((item, j) =>
        isPlainObject(item) && typeof item.cpn_id === "string" && item.cpn_id !== "" && !known(item.cpn_id)
          ? [{ path: `conditions.${i}.items.${j}.cpn_id`, code: "reference", messageKey: "flow.components.Switch.errors.unknownComponent", params: { id: item.cpn_id } }]
          : [],
      ),
    );
  },
  async run({ params, resolve }) {
    const valueOf = (reference: string) => {
      const placeholder = `{${reference}}`;
      const value = resolve(placeholder);
      return value === placeholder ? "" : value;
    };
    const holds = (item: SwitchItem) => compare(switchOperator(item.operator) ?? "equal", valueOf(item.cpn_id), String(item.value ?? ""));
    for (const condition of conditionsOf(params)) {
      const matched = condition.logical_operator === "or" ? condition.items.some(holds) : condition.items.every(holds);
      if (matched) return { content: condition.to ?? "", next: condition.to ? [condition.to] : [] };
    }
    const otherwise = typeof params.end_cpn_id === "string" ? params.end_cpn_id : "";
    return { content: otherwise, next: otherwise ? [otherwise] : [] };
  },
};
