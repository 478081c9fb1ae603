import type { EditorNode, FlowComponentInfo } from "../flowTypes";
import { beginInputsOf } from "./beginInputs";

/**
 * What a variable picker offers (server/src/flows/engine/references.ts reads them): the outputs of the components
 * upstream of the node — `{id}` (their text) and `{id@name}` (a named output) — Begin's inputs as `begin@key`,
 * and the run's globals `sys.*`. The value is the reference as the params store it, without braces.
 */

export interface ReferenceOption {
  value: string;
  label: string;
}

export interface ReferenceGroup {
  /** The component's display name, or a translated title (globals). */
  label: string;
  options: ReferenceOption[];
}

export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The run's globals a flow may read (engine/state.ts). */
export const GLOBAL_REFERENCES = ["sys.query", "sys.user_id", "sys.conversation_turns"] as const;

export const BEGIN = "Begin";

interface PickerSource {
  nodes: EditorNode[];
  components: FlowComponentInfo[];
  /** Ids of the components upstream of the node being edited. */
  upstream: string[];
  t: Translate;
}

/** The picker's choices, grouped: Begin's inputs, then each upstream component in the flow's order, then the globals. */
export function referenceGroups({ nodes, components, upstream, t }: PickerSource): ReferenceGroup[] {
  const byName = new Map(components.map((component) => [component.name, component]));
  const above = new Set(upstream);
  const groups: ReferenceGroup[] = [];
  const begin = nodes.find((node) => node.componentName === BEGIN);
  if (begin) {
    const inputs = beginInputsOf(begin.params.query).filter((input) => input.key.trim() !== "");
    if (inputs.length > 0) groups.push({ label: begin.name, options: inputs.map((input) => ({ value: `begin@${input.key}`, label: input.name.trim() || input.key })) });
  }
  for (const node of nodes) {
    const component = byName.get(node.componentName);
    if (!above.has(node.id) || node.componentName === BEGIN || !component || component.editorOnly) continue;
    groups.push({
      label: node.name,
      options: [{ value: node.id, label: t("flow.form.references.output") }, ...component.outputs.map((output) => ({ value: `${node.id}@${output.name}`, label: t(output.label) }))],
    });
  }
  groups.push({ label: t("flow.form.references.globals"), options: GLOBAL_REFERENCES.map((value) => ({ value, label: t(`flow.form.references.sys.${value.slice("sys.".length)}`) })) });
  return groups;
}

/** How a reference reads in the form: "Retrieval 1 · Output", "Begin · Language"; a reference the picker no longer offers is shown as written. */
export function referenceLabel(value: string, groups: ReferenceGroup[]): string {
  for (const group of groups) {
    const option = group.options.find((candidate) => candidate.value === value);
    if (option) return `${group.label} · ${option.label}`;
  }
  return value;
}

/** Whether the picker offers this reference (a stale one, e.g. to a component no longer upstream, is marked). */
export function isOffered(value: string, groups: ReferenceGroup[]): boolean {
  return groups.some((group) => group.options.some((option) => option.value === value));
}
