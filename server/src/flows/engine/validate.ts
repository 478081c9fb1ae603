import { validate, withDefaults } from "../../platform/param-spec";
import { componentNamed } from "../components";
import type { FlowDsl } from "../dsl";
import { checkableParams, neededSecrets } from "../flow-secrets";
import { FlowGraph, type ComponentLookup } from "./graph";
import { parameterBindings, referencedComponent } from "./references";
import { isPlainObject } from "../../platform/plain-object";

/** One problem of a flow, for the editor to show on the component (or the field) at fault. */
export interface FlowProblem {
  /** The component at fault; none for the flow as a whole (no Begin). */
  componentId?: string;
  /** The param at fault, dotted ("conditions.0.to"). */
  field?: string;
  messageKey: string;
  params?: Record<string, unknown>;
}

/** `begin@key`, `sys.*` and `env.*` name no component: they are checked against Begin's inputs, or not at all. */
function namesAComponent(reference: string): boolean {
  return !reference.startsWith("begin@") && !reference.startsWith("sys.") && !reference.startsWith("env.");
}

/**
 * Every problem that keeps a flow from running as drawn, checked with the components' own descriptions: unknown
 * components, params (non-strict, since RAGFlow's files carry keys such as `output_var_name` and `inputs`), each
 * component's flow checks, secrets a file or a copy left out (flow-secrets.ts), display names (required and unique, spec §5), exactly one Begin, the editor's connection
 * rules (no self-links, no duplicate edges, RAGFlow's restricted targets, a Note connected to nothing), and that
 * routes and references name components of the flow.
 */
export function validateFlow(dsl: FlowDsl, lookup: ComponentLookup = componentNamed): FlowProblem[] {
  if (!isPlainObject(dsl) || !isPlainObject(dsl.components)) return [{ messageKey: "flow.import.notAFlow" }];
  const graph = new FlowGraph(dsl, lookup);
  const problems: FlowProblem[] = [];
  const add = (problem: FlowProblem) => problems.push(problem);

  const begins = graph.ids.filter((id) => graph.nameOf(id) === "Begin");
  if (begins.length === 0) add({ messageKey: "flow.errors.beginMissing" });
  for (const extra of begins.slice(1)) add({ componentId: extra, messageKey: "flow.errors.beginMultiple" });

  const names = new Map<string, string>();
  for (const node of graph.nodes) {
    if (graph.has(node.id) && isPlainObject(node.data) && "name" in node.data && (typeof node.data.name !== "string" || node.data.name.trim() === "")) {
      add({ componentId: node.id, field: "name", messageKey: "flow.errors.nameRequired" });
    }
  }
  for (const id of graph.ids) {
    const name = graph.displayName(id).trim();
    const other = names.get(name.toLowerCase());
    if (other !== undefined) add({ componentId: id, field: "name", messageKey: "flow.errors.nameDuplicate", params: { name } });
    else names.set(name.toLowerCase(), id);
  }

  for (const id of graph.ids) {
    const component = dsl.components[id];
    const definition = graph.definition(id);
    if (!isPlainObject(component) || !isPlainObject(component.obj) || typeof component.obj.component_name !== "string") {
      add({ componentId: id, messageKey: "flow.errors.malformedComponent", params: { id } });
      continue;
    }
    if (!definition) {
      add({ componentId: id, messageKey: "flow.errors.unknownComponent", params: { name: component.obj.component_name } });
      continue;
    }
    const given = graph.params(id);
    for (const error of validate(definition.params, checkableParams(definition, given))) add({ componentId: id, field: error.path, messageKey: error.messageKey, params: error.params });
    for (const key of neededSecrets(definition, given)) add({ componentId: id, field: key, messageKey: "flow.errors.secretNeeded", params: { name: graph.displayName(id) } });
    if (definition.checkInFlow) {
      for (const issue of definition.checkInFlow(withDefaults(definition.params, given), dsl, id)) {
        add({ componentId: id, field: issue.path, messageKey: issue.messageKey, params: issue.params });
      }
    }
    const parent = graph.parentOf(id);
    if (parent !== undefined && !graph.definition(parent)?.container) add({ componentId: id, messageKey: "flow.errors.unknownParent", params: { name: graph.displayName(id), parent } });
    if (parent !== undefined && definition.interaction) add({ componentId: id, messageKey: "flow.errors.interactionInContainer", params: { name: graph.displayName(id) } });
  }

  problems.push(...connectionProblems(graph));
  problems.push(...referenceProblems(graph));
  return problems;
}

/** The editor's connection rules, over the components' lists and the drawn edges alike. */
function connectionProblems(graph: FlowGraph): FlowProblem[] {
  const problems: FlowProblem[] = [];
  const links: { source: string; target: string; handle?: string | null }[] = [];
  for (const id of graph.ids) {
    const component = graph.dsl.components[id];
    const listed = Array.isArray(component?.downstream) ? component.downstream : [];
    for (const target of listed) links.push({ source: id, target });
    for (const source of Array.isArray(component?.upstream) ? component.upstream : []) if (!graph.has(source)) problems.push({ componentId: id, messageKey: "flow.errors.unknownTarget", params: { name: graph.displayName(id), target: source } });
    if (new Set(listed).size !== listed.length) problems.push({ componentId: id, messageKey: "flow.errors.duplicateEdge", params: { source: graph.displayName(id) } });
  }
  const drawn = new Set<string>();
  for (const edge of graph.edges) {
    const key = JSON.stringify([edge.source, edge.target, edge.sourceHandle ?? null]);
    if (drawn.has(key)) problems.push({ componentId: edge.source, messageKey: "flow.errors.duplicateEdge", params: { source: graph.displayName(edge.source) } });
    drawn.add(key);
    links.push({ source: edge.source, target: edge.target });
  }

  const reported = new Set<string>();
  const once = (problem: FlowProblem) => {
    const key = JSON.stringify(problem);
    if (!reported.has(key)) problems.push(problem);
    reported.add(key);
  };
  for (const { source, target } of links) {
    if (!graph.has(source) || !graph.has(target)) {
      const known = graph.has(source) ? source : target;
      once({ componentId: graph.has(known) ? known : undefined, messageKey: "flow.errors.unknownTarget", params: { name: graph.displayName(known), target: graph.has(source) ? target : source } });
      continue;
    }
    if (source === target) {
      once({ componentId: source, messageKey: "flow.errors.selfLink", params: { name: graph.displayName(source) } });
      continue;
    }
    const sourceDefinition = graph.definition(source);
    const targetDefinition = graph.definition(target);
    if (sourceDefinition?.editorOnly || targetDefinition?.editorOnly) {
      const note = sourceDefinition?.editorOnly ? source : target;
      once({ componentId: note, messageKey: "flow.errors.noteConnected", params: { name: graph.displayName(note) } });
      continue;
    }
    if (sourceDefinition?.restrictedTargets?.includes(graph.nameOf(target))) {
      once({ componentId: source, messageKey: "flow.errors.restrictedLink", params: { source: graph.displayName(source), target: graph.displayName(target) } });
    }
  }
  return problems;
}

/** Routes go to components of the flow; references name its components and Begin's inputs. */
function referenceProblems(graph: FlowGraph): FlowProblem[] {
  const problems: FlowProblem[] = [];
  const beginId = graph.beginId();
  const beginKeys = new Set(
    (beginId !== undefined && Array.isArray(graph.params(beginId).query) ? (graph.params(beginId).query as unknown[]) : []).flatMap((field) => (isPlainObject(field) && typeof field.key === "string" ? [field.key] : [])),
  );
  for (const id of graph.ids) {
    const name = graph.displayName(id);
    graph.routesOf(id).forEach((port) => {
      if (port.target && !graph.has(port.target)) problems.push({ componentId: id, messageKey: "flow.errors.routeTargetMissing", params: { name, target: port.target } });
      if (port.target === id) problems.push({ componentId: id, messageKey: "flow.errors.selfLink", params: { name } });
    });
    const params = graph.params(id);
    const written: string[] = [
      ...parameterBindings(params).map((binding) => binding.component_id),
      ...(graph.nameOf(id) === "Begin" || !Array.isArray(params.query) ? [] : params.query.filter(isPlainObject).flatMap((v) => (v.type === "reference" && typeof v.component_id === "string" ? [v.component_id] : []))),
    ];
    for (const reference of written) {
      if (reference.startsWith("begin@") && !beginKeys.has(reference.slice("begin@".length))) problems.push({ componentId: id, messageKey: "flow.errors.unknownReference", params: { name, reference } });
      else if (namesAComponent(reference) && referencedComponent(graph, reference) === undefined) problems.push({ componentId: id, messageKey: "flow.errors.unknownReference", params: { name, reference } });
    }
  }
  return problems;
}
