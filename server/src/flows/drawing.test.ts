import { describe, expect, test } from "@jest/globals";
import type { FlowDsl } from "./dsl";
import { importFlow } from "./dsl-format";
import { linkFromDrawing } from "./drawing";
import { componentNamed } from "./components";
import { FlowGraph } from "./engine/graph";
import { ragflowFixtureFiles, readRagflowFixture } from "./testing/ragflow-fixtures";

/** A Begin, a Categorize with two categories and a Relevant, drawn with the edges given. */
function drawn(edges: { source: string; target: string; sourceHandle?: string }[]): FlowDsl {
  const component = (component_name: string, params: Record<string, unknown> = {}) => ({ obj: { component_name, params }, upstream: [], downstream: [] });
  const components = {
    begin: component("Begin"),
    "Categorize:a": component("Categorize", { category_description: { sales: { description: "buying", to: "Answer:old" }, support: { description: "help" } } }),
    "Relevant:a": component("Relevant", { yes: "", no: "" }),
    "Answer:a": component("Answer"),
    "Answer:old": component("Answer"),
  };
  const nodes = Object.keys(components).map((id, i) => ({ id, position: { x: i * 100, y: 0 }, data: { name: id } }));
  return { components, graph: { nodes, edges } };
}

describe("linkFromDrawing", () => {
  test("links follow the edges, and a routing port leads where the edge leaving its handle goes, or nowhere", () => {
    const dsl = linkFromDrawing(
      drawn([
        { source: "begin", target: "Categorize:a" },
        { source: "Categorize:a", target: "Relevant:a", sourceHandle: "support" },
        { source: "Relevant:a", target: "Answer:a", sourceHandle: "no" },
      ]),
    );
    expect(dsl.components.begin.downstream).toEqual(["Categorize:a"]);
    expect(dsl.components["Categorize:a"].upstream).toEqual(["begin"]);
    expect(dsl.components["Categorize:a"].downstream).toEqual(["Relevant:a"]);
    // The sales edge was deleted on the canvas: its category leads nowhere now, so the old target is no longer linked.
    expect(dsl.components["Categorize:a"].obj.params.category_description).toEqual({ sales: { description: "buying", to: "" }, support: { description: "help", to: "Relevant:a" } });
    expect(dsl.components["Answer:old"].upstream).toEqual([]);
    expect(dsl.components["Relevant:a"].obj.params).toEqual({ yes: "", no: "Answer:a" });
  });

  test("edges to unknown components and self-links make no link", () => {
    const dsl = linkFromDrawing(drawn([{ source: "begin", target: "nowhere" }, { source: "Answer:a", target: "Answer:a" }]));
    expect(Object.values(dsl.components).every((component) => component.upstream.length === 0 && component.downstream.length === 0)).toBe(true);
  });

  test("a DSL without a drawing is left as it is", () => {
    const { graph: _graph, ...bare } = drawn([]);
    expect(linkFromDrawing(bare)).toBe(bare);
  });

  test.each(ragflowFixtureFiles())("RAGFlow's %s runs the same links when saved from the editor", (file) => {
    const { dsl } = importFlow(readRagflowFixture(file));
    const linked = linkFromDrawing(dsl);
    const links = (flow: FlowDsl) => {
      const graph = new FlowGraph(flow, componentNamed);
      return Object.fromEntries(graph.ids.map((id) => [id, { down: [...graph.downstream(id)].sort(), params: graph.params(id) }]));
    };
    expect(links(linked)).toEqual(links(dsl));
  });
});
