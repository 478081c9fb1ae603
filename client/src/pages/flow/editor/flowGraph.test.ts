import { describe, expect, test } from "@jest/globals";
import type { FlowComponentInfo } from "../flowTypes";
import { connectionProblem, copied, dslOf, editorGraphOf, freeSpot, laidOut, newComponentId, pasted, registryOf, uniqueName, upstreamOf, type FlowDslView, type FlowNode } from "./flowGraph";

const info = (name: string, extra: Partial<FlowComponentInfo> = {}) =>
  ({ name, category: "core", icon: "", label: "", description: "", needs: [], routing: false, interaction: false, editorOnly: false, container: false, restrictedTargets: ["Begin"], outputs: [], params: [], ...extra }) as FlowComponentInfo;

const registry = registryOf([
  info("Begin", { restrictedTargets: ["Relevant"] }),
  info("Answer", { restrictedTargets: ["Begin", "Answer", "Message", "Relevant"], interaction: true }),
  info("Categorize", { routing: true, restrictedTargets: ["Begin", "Categorize", "Answer", "Relevant"] }),
  info("Generate"),
  info("Note", { editorOnly: true, restrictedTargets: [] }),
]);

const dsl: FlowDslView = {
  components: {
    begin: { obj: { component_name: "Begin", params: { prologue: "Hi" } }, upstream: [], downstream: ["Categorize:a"] },
    "Categorize:a": { obj: { component_name: "Categorize", params: { category_description: { x: { to: "Generate:a" } } } }, upstream: ["begin"], downstream: ["Generate:a"] },
    "Generate:a": { obj: { component_name: "Generate", params: { prompt: "p" } }, upstream: ["Categorize:a"], downstream: ["Answer:a"], parent_id: "Iteration:z" },
    "Answer:a": { obj: { component_name: "Answer", params: {} }, upstream: ["Generate:a"], downstream: [] },
    "Note:a": { obj: { component_name: "Note", params: { text: "remember" } }, upstream: [], downstream: [] },
  },
  graph: {
    nodes: [
      { id: "begin", position: { x: 0, y: 0 }, data: { label: "Begin", name: "Begin" } },
      { id: "Categorize:a", position: { x: 200, y: 0 }, data: { label: "Categorize", name: "Sort" } },
      { id: "Generate:a", position: { x: 400, y: 0 }, data: { label: "Generate", name: "Write" } },
      { id: "Answer:a", position: { x: 600, y: 0 }, data: { label: "Answer", name: "Reply" } },
      { id: "Note:a", position: { x: 0, y: 300.4 }, data: { label: "Note", name: "Note" } },
      { id: "ghost", position: { x: 0, y: 0 }, data: { label: "Generate", name: "Ghost" } },
    ],
    edges: [
      { source: "begin", target: "Categorize:a" },
      { source: "Categorize:a", target: "Generate:a", sourceHandle: "x" },
      { source: "Generate:a", target: "Answer:a", sourceHandle: "b" },
      { source: "Answer:a", target: "ghost" },
    ],
  },
  globals: { "sys.query": "" },
};

describe("the canvas of a flow", () => {
  const { nodes, edges } = editorGraphOf(dsl, registry);

  test("one node per drawn component, with its name and params; notes are notes; Begin cannot be deleted", () => {
    expect(nodes.map((node) => [node.id, node.type, node.data.name])).toEqual([
      ["begin", "component", "Begin"],
      ["Categorize:a", "component", "Sort"],
      ["Generate:a", "component", "Write"],
      ["Answer:a", "component", "Reply"],
      ["Note:a", "note", "Note"],
    ]);
    expect(nodes[0].deletable).toBe(false);
    expect(nodes[2].data.params).toEqual({ prompt: "p" });
    // An edge to a node that is not a component is not drawn; RAGFlow's side handles ("b") are not ports.
    expect(edges.map((edge) => `${edge.source}>${edge.sourceHandle ?? ""}>${edge.target}`)).toEqual(["begin>>Categorize:a", "Categorize:a>x>Generate:a", "Generate:a>>Answer:a"]);
  });

  test("saves back to the same components, drawing and globals (links are the server's to take from the edges)", () => {
    const saved = dslOf(nodes, edges, dsl);
    expect(Object.keys(saved.components)).toEqual(["begin", "Categorize:a", "Generate:a", "Answer:a", "Note:a"]);
    expect(saved.components["Generate:a"]).toEqual({ obj: { component_name: "Generate", params: { prompt: "p" } }, upstream: [], downstream: [], parent_id: "Iteration:z" });
    expect(saved.graph?.nodes[4]).toEqual({ id: "Note:a", type: "note", position: { x: 0, y: 300 }, data: { label: "Note", name: "Note" } });
    expect(saved.graph?.edges[1]).toMatchObject({ source: "Categorize:a", target: "Generate:a", sourceHandle: "x" });
    expect(saved.globals).toEqual({ "sys.query": "" });
    expect(editorGraphOf(saved, registry).edges).toHaveLength(3);
  });

  test("connection rules: self, notes, duplicates, RAGFlow's restricted targets, one edge per routing port", () => {
    const check = (source: string, target: string, sourceHandle: string | null = null) => connectionProblem({ source, target, sourceHandle }, nodes, edges, registry);
    expect(check("Generate:a", "Generate:a")).toBe("flow.editor.connect.self");
    expect(check("Generate:a", "Note:a")).toBe("flow.editor.connect.note");
    expect(check("Generate:a", "Answer:a")).toBe("flow.editor.connect.duplicate");
    expect(check("Answer:a", "begin")).toBe("flow.editor.connect.restricted");
    expect(check("Categorize:a", "Answer:a")).toBe("flow.editor.connect.restricted");
    expect(check("Categorize:a", "Generate:a", "y")).toBeNull();
    expect(check("Categorize:a", "Answer:a", "x")).toBe("flow.editor.connect.restricted");
    expect(connectionProblem({ source: "Categorize:a", target: "Note:a", sourceHandle: "x" }, nodes, edges, registry)).toBe("flow.editor.connect.note");
    const twoGenerates = [...nodes, { ...nodes[2], id: "Generate:b", data: { ...nodes[2].data, name: "Other" } }];
    expect(connectionProblem({ source: "Categorize:a", target: "Generate:b", sourceHandle: "x" }, twoGenerates, edges, registry)).toBe("flow.editor.connect.portTaken");
    expect(check("Generate:a", "Categorize:a")).toBeNull();
  });

  test("upstream of a node: every component it is downstream of, nearest first, even in a loop", () => {
    expect(upstreamOf("Answer:a", edges)).toEqual(["Generate:a", "Categorize:a", "begin"]);
    expect(upstreamOf("begin", edges)).toEqual([]);
    const loop = [...edges, { id: "back", source: "Answer:a", target: "Categorize:a" }];
    expect(upstreamOf("Categorize:a", loop)).toEqual(["begin", "Answer:a", "Generate:a"]);
  });

  test("auto-layout puts each component right of the ones before it and leaves notes where they are", () => {
    const placed = laidOut(nodes, edges);
    const x = (id: string) => placed.find((node) => node.id === id)!.position.x;
    expect(x("begin")).toBeLessThan(x("Categorize:a"));
    expect(x("Categorize:a")).toBeLessThan(x("Generate:a"));
    expect(x("Generate:a")).toBeLessThan(x("Answer:a"));
    expect(placed.find((node) => node.id === "Note:a")!.position).toEqual({ x: 0, y: 300.4 });
  });
});

describe("names, ids, copy and paste", () => {
  test("names are unique without case; ids are RAGFlow's kind", () => {
    expect(uniqueName("Retrieval", ["Begin"])).toBe("Retrieval");
    expect(uniqueName("Retrieval", ["retrieval", "Retrieval 2"])).toBe("Retrieval 3");
    expect(uniqueName("  ", [])).toBe("Component");
    let n = 0;
    const sequence = [0, 0, 0.5];
    expect(newComponentId("Generate", new Set(["Generate:000000"]), () => sequence[n++])).toMatch(/^Generate:[0-9a-z]{6}$/);
    expect(n).toBe(3);
  });

  test("Ctrl-C keeps the selected nodes but Begin, with the edges between them; Ctrl-V makes new ones", () => {
    const { nodes, edges } = editorGraphOf(dsl, registry);
    const selected: FlowNode[] = nodes.map((node) => ({ ...node, selected: ["begin", "Categorize:a", "Generate:a"].includes(node.id) }));
    const clipboard = copied(selected, edges);
    expect(clipboard.nodes.map((node) => node.id)).toEqual(["Categorize:a", "Generate:a"]);
    expect(clipboard.edges).toHaveLength(1);
    const copy = pasted(clipboard, nodes);
    expect(copy.nodes.map((node) => node.data.name)).toEqual(["Sort 2", "Write 2"]);
    expect(copy.nodes.every((node) => node.selected && !nodes.some((other) => other.id === node.id))).toBe(true);
    expect(copy.nodes[0].position).toEqual({ x: 240, y: 40 });
    expect(copy.edges[0]).toMatchObject({ source: copy.nodes[0].id, target: copy.nodes[1].id, sourceHandle: "x" });
    // The clipboard is a copy: editing the pasted node leaves the original alone.
    copy.nodes[1].data.params.prompt = "changed";
    expect(nodes[2].data.params.prompt).toBe("p");
  });
});

test("a new node goes where it overlaps no other", () => {
  const at = (id: string, x: number, y: number): FlowNode => ({ id, type: "component", position: { x, y }, data: { name: id, componentName: "Generate", params: {} } });
  expect(freeSpot({ x: 500, y: 500 }, [at("a", 0, 0)])).toEqual({ x: 500, y: 500 });
  const spot = freeSpot({ x: 10, y: 10 }, [at("a", 0, 0), at("b", 0, 120)]);
  expect(spot.x).toBe(10);
  expect(spot.y).toBeGreaterThanOrEqual(120 + 90 + 24);
});
