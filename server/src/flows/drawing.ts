import type { FlowDsl, GraphEdge } from "./dsl";
import { componentNamed } from "./components";

/**
 * The editor draws a flow; the engine reads its components. When the editor saves, its drawing is the truth for
 * the links: each component's `upstream`/`downstream` are the edges between components, and a routing component's
 * ports (a Categorize category, a Switch case, Relevant's yes/no) lead where the edge leaving that handle goes, or
 * nowhere when none does. So a link is made or removed in one place, the canvas, as RAGFlow's editor does.
 *
 * A DSL without a drawing (an API client's) is returned as it is.
 */
export function linkFromDrawing(dsl: FlowDsl): FlowDsl {
  if (!dsl.graph || !Array.isArray(dsl.graph.edges)) return dsl;
  const has = (id: string) => Object.prototype.hasOwnProperty.call(dsl.components, id);
  const edges = dsl.graph.edges.filter((edge): edge is GraphEdge => has(edge.source) && has(edge.target) && edge.source !== edge.target);
  const components = structuredClone(dsl.components);
  for (const component of Object.values(components)) {
    component.upstream = [];
    component.downstream = [];
  }
  for (const { source, target } of edges) {
    if (!components[source].downstream.includes(target)) components[source].downstream.push(target);
    if (!components[target].upstream.includes(source)) components[target].upstream.push(source);
  }
  for (const [id, component] of Object.entries(components)) {
    const definition = componentNamed(component.obj.component_name);
    if (!definition?.routes || !definition.connect) continue;
    let params = component.obj.params;
    for (const port of definition.routes(params)) {
      const leaving = edges.find((edge) => edge.source === id && edge.sourceHandle === port.handle);
      params = definition.connect(params, port.handle, leaving?.target ?? null);
    }
    component.obj.params = params;
  }
  return { ...dsl, components };
}
