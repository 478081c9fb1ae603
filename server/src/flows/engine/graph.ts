import type { ComponentDefinition } from "../component";
import { BEGIN_ID, type DslComponent, type FlowDsl } from "../dsl";

/** Finds a component's description by its RAGFlow name (the registry; tests may add their own). */
export type ComponentLookup = (name: string) => ComponentDefinition | undefined;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A flow as the engine reads it: every component with its description, and its edges taken from everything
 * that names one — `downstream`, the other end's `upstream`, and a routing component's targets — so that a file
 * whose lists disagree (RAGFlow's own examples have such) runs the way its author drew it.
 */
export class FlowGraph {
  readonly ids: string[];
  private readonly down = new Map<string, string[]>();
  private readonly up = new Map<string, string[]>();

  constructor(
    readonly dsl: FlowDsl,
    private readonly lookup: ComponentLookup,
  ) {
    this.ids = Object.keys(dsl.components);
    const add = (from: string, to: string) => {
      if (!this.has(from) || !this.has(to)) return;
      const targets = this.down.get(from) ?? [];
      if (!targets.includes(to)) this.down.set(from, [...targets, to]);
      const sources = this.up.get(to) ?? [];
      if (!sources.includes(from)) this.up.set(to, [...sources, from]);
    };
    for (const id of this.ids) {
      const component = dsl.components[id];
      for (const to of component.downstream ?? []) add(id, to);
      for (const from of component.upstream ?? []) add(from, id);
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
    return isObject(params) ? params : {};
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
    const node = this.dsl.graph?.nodes?.find((n) => n.id === id);
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
    const seen = new Set<string>();
    const stack = [...this.upstream(id)];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...this.upstream(next));
    }
    return seen;
  }
}
