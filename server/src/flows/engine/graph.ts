import type { ComponentDefinition } from "../component";
import { BEGIN_ID, type DslComponent, type FlowDsl, type GraphEdge, type GraphNode } from "../dsl";
import { isPlainObject } from "../../platform/plain-object";

/** Finds a component's description by its RAGFlow name (the registry; tests may add their own). */
export type ComponentLookup = (name: string) => ComponentDefinition | undefined;

/**
 * A flow as the engine reads it: every component with its description, and its edges taken from everything
 * that names one — `downstream`, the other end's `upstream`, and a routing component's targets — so that a file
 * whose lists disagree (RAGFlow's own examples have such) runs the way its author drew it.
 */
export class FlowGraph {
  readonly ids: string[];
  /** The drawing's nodes and edges, when the drawing is well-formed enough to read. */
  readonly nodes: GraphNode[];
  readonly edges: GraphEdge[];
  private readonly down = new Map<string, string[]>();
  private readonly up = new Map<string, string[]>();
  private readonly ancestorSets = new Map<string, Set<string>>();
  private readonly dependencySets = new Map<string, string[]>();

  constructor(
    readonly dsl: FlowDsl,
    private readonly lookup: ComponentLookup,
  ) {
    this.ids = Object.keys(dsl.components);
    this.nodes = Array.isArray(dsl.graph?.nodes) ? dsl.graph.nodes.filter((node) => isPlainObject(node) && typeof node.id === "string") : [];
    this.edges = Array.isArray(dsl.graph?.edges) ? dsl.graph.edges.filter((edge) => isPlainObject(edge) && typeof edge.source === "string" && typeof edge.target === "string") : [];
    const add = (from: string, to: string) => {
      if (!this.has(from) || !this.has(to)) return;
      const targets = this.down.get(from) ?? [];
      if (!targets.includes(to)) this.down.set(from, [...targets, to]);
      const sources = this.up.get(to) ?? [];
      if (!sources.includes(from)) this.up.set(to, [...sources, from]);
    };
    const ids = (list: unknown) => (Array.isArray(list) ? list.filter((item): item is string => typeof item === "string") : []);
    for (const id of this.ids) {
      const component: Partial<DslComponent> = isPlainObject(dsl.components[id]) ? dsl.components[id] : {};
      for (const to of ids(component.downstream)) add(id, to);
      for (const from of ids(component.upstream)) add(from, id);
      for (const port of this.routesOf(id)) if (port.target) add(id, port.target);
    }
  }

  has(id: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.dsl.components, id);
  }

  component(id: string): DslComponent {
    return this.dsl.components[id];
  }

  nameOf(id: string): string {
    return this.component(id)?.obj?.component_name ?? "";
  }

  definition(id: string): ComponentDefinition | undefined {
    return this.has(id) ? this.lookup(this.nameOf(id)) : undefined;
  }

  params(id: string): Record<string, unknown> {
    const params = this.component(id)?.obj?.params;
    return isPlainObject(params) ? params : {};
  }

  routesOf(id: string) {
    const definition = this.definition(id);
    if (!definition?.routes) return [];
    try {
      return definition.routes(this.params(id));
    } catch {
      return []; // params too broken to read: validation reports them
    }
  }

  downstream(id: string): string[] {
    return this.down.get(id) ?? [];
  }

  upstream(id: string): string[] {
    return this.up.get(id) ?? [];
  }

  /** The display name (graph node's `data.name`, spec §5), else the id. */
  displayName(id: string): string {
    const node = this.nodes.find((n) => n.id === id);
    const name = node?.data?.name;
    return typeof name === "string" && name.trim() !== "" ? name : id;
  }

  parentOf(id: string): string | undefined {
    return this.component(id)?.parent_id || undefined;
  }

  childrenOf(containerId: string): string[] {
    return this.ids.filter((id) => this.parentOf(id) === containerId);
  }

  /** The Begin component: `begin` by RAGFlow's convention, else the one named Begin. */
  beginId(): string | undefined {
    if (this.has(BEGIN_ID) && this.nameOf(BEGIN_ID) === "Begin") return BEGIN_ID;
    return this.ids.find((id) => this.nameOf(id) === "Begin");
  }

  isInteraction(id: string): boolean {
    return this.definition(id)?.interaction === true;
  }

  /** Every component from which `id` can be reached (its ancestors). */
  ancestors(id: string): Set<string> {
    const known = this.ancestorSets.get(id);
    if (known) return known;
    const seen = new Set<string>();
    const stack = [...this.upstream(id)];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...this.upstream(next));
    }
    this.ancestorSets.set(id, seen);
    return seen;
  }

  /**
   * What a component waits for when they still run in the turn (the join barrier): the components its params
   * reference and its upstream in the same container — not Begin, not an Answer (those ran before the turn).
   */
  dependencies(id: string, referenced: (id: string) => string[]): string[] {
    const known = this.dependencySets.get(id);
    if (known) return known;
    const candidates = [...new Set([...referenced(id), ...this.upstream(id)])];
    const found = candidates.filter((other) => other !== id && this.parentOf(other) === this.parentOf(id) && !this.isInteraction(other) && this.nameOf(other) !== "Begin");
    this.dependencySets.set(id, found);
    return found;
  }
}
