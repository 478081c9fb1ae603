import { describe, expect, test } from "@jest/globals";
import { thumbnailOf } from "./thumbnail";

const BOX = { width: 240, height: 120 };

const inside = (node: { x: number; y: number; width: number; height: number }) =>
  node.x >= 0 && node.y >= 0 && node.x + node.width <= BOX.width + 0.1 && node.y + node.height <= BOX.height + 0.1;

describe("a flow's thumbnail", () => {
  test("fits a wide drawing into the box, centred, keeping its proportions", () => {
    const graph = {
      nodes: [
        { id: "begin", position: { x: -500, y: 0 }, width: 100, height: 50, data: { label: "Begin" } },
        { id: "Retrieval:Docs", position: { x: 500, y: 300 }, width: 200, height: 50 },
        { id: "Answer:Reply", position: { x: 1500, y: 0 }, width: 100, height: 50 },
      ],
      edges: [
        { source: "begin", target: "Retrieval:Docs" },
        { source: "Retrieval:Docs", target: "Answer:Reply" },
      ],
    };
    const { nodes, edges } = thumbnailOf(graph, BOX);
    expect(nodes.map((node) => node.componentName)).toEqual(["Begin", "Retrieval", "Answer"]);
    expect(nodes.every(inside)).toBe(true);
    // 2100 wide drawn in 220: a tenth or so, and both halves of the box equally empty
    expect(nodes[0].width).toBeCloseTo(100 * (220 / 2100), 1);
    expect(nodes[0].x).toBeCloseTo(BOX.width - (nodes[2].x + nodes[2].width), 0);
    expect(edges).toHaveLength(2);
    expect(edges[0].path).toMatch(new RegExp(`^M${nodes[0].x + nodes[0].width},`));
  });

  test("a link back to an earlier component dips under the nodes instead of running back through them", () => {
    const graph = {
      nodes: [
        { id: "Answer:Chat", position: { x: 0, y: 0 }, width: 100, height: 40 },
        { id: "Generate:Reply", position: { x: 300, y: 0 }, width: 100, height: 40 },
      ],
      edges: [
        { source: "Answer:Chat", target: "Generate:Reply" },
        { source: "Generate:Reply", target: "Answer:Chat" },
      ],
    };
    const { nodes, edges } = thumbnailOf(graph, BOX);
    const controlYs = (path: string) => [...path.matchAll(/[ C](-?[\d.]+),(-?[\d.]+)/g)].slice(0, 2).map((m) => Number(m[2]));
    const middle = nodes[0].y + nodes[0].height / 2;
    expect(controlYs(edges[1].path)).toHaveLength(2);
    expect(controlYs(edges[0].path).every((y) => Math.abs(y - middle) < 0.2)).toBe(true);
    expect(controlYs(edges[1].path).every((y) => y > nodes[0].y + nodes[0].height)).toBe(true);
  });

  test("a small flow is not blown up to fill the box", () => {
    const { nodes } = thumbnailOf({ nodes: [{ id: "begin", position: { x: 0, y: 0 }, width: 100, height: 40 }], edges: [] }, BOX);
    expect(nodes[0].width).toBeLessThan(60);
    expect(nodes[0].x).toBeCloseTo((BOX.width - nodes[0].width) / 2, 1);
  });

  test("nodes without a size take a default one, and React Flow's measured size when there is one", () => {
    const { nodes } = thumbnailOf(
      {
        nodes: [
          { id: "a", position: { x: 0, y: 0 } },
          { id: "b", position: { x: 400, y: 0 }, measured: { width: 360, height: 56 } },
        ],
      },
      BOX,
    );
    expect(nodes[1].width / nodes[0].width).toBeCloseTo(2, 1);
  });

  test("a child of a container is drawn where it is, relative to its parent", () => {
    const { nodes } = thumbnailOf(
      {
        nodes: [
          { id: "Iteration:Loop", position: { x: 1000, y: 1000 }, width: 400, height: 200 },
          { id: "Generate:Inner", position: { x: 20, y: 20 }, width: 100, height: 40, parentId: "Iteration:Loop" },
        ],
      },
      BOX,
    );
    const [parent, child] = nodes;
    expect(child.x).toBeGreaterThan(parent.x);
    expect(child.y).toBeGreaterThan(parent.y);
    expect(child.x + child.width).toBeLessThan(parent.x + parent.width);
  });

  test("notes are told apart from components", () => {
    const { nodes } = thumbnailOf({ nodes: [{ id: "Note:1", type: "noteNode", position: { x: 0, y: 0 }, data: { label: "Note" } }] }, BOX);
    expect(nodes[0].note).toBe(true);
  });

  test.each([
    ["nothing", undefined],
    ["a string", "graph"],
    ["no nodes", { edges: [{ source: "a", target: "b" }] }],
    ["nodes that are not nodes", { nodes: [null, 3, { id: 4 }, { id: "x" }, { id: "y", position: { x: "1", y: 0 } }, { id: "z", position: { x: NaN, y: 0 } }] }],
  ])("%s draws an empty thumbnail", (_, graph) => {
    expect(thumbnailOf(graph, BOX)).toEqual({ nodes: [], edges: [] });
  });

  test("edges to missing nodes, to themselves or malformed are left out", () => {
    const graph = {
      nodes: [
        { id: "a", position: { x: 0, y: 0 } },
        { id: "b", position: { x: 300, y: 0 } },
      ],
      edges: [{ source: "a", target: "b" }, { source: "a", target: "gone" }, { source: "a", target: "a" }, { source: 1, target: "b" }, null],
    };
    expect(thumbnailOf(graph, BOX).edges).toHaveLength(1);
  });

  test("a loop back through a parent chain does not hang", () => {
    const graph = {
      nodes: [
        { id: "a", position: { x: 0, y: 0 }, parentId: "b" },
        { id: "b", position: { x: 10, y: 0 }, parentId: "a" },
      ],
    };
    expect(thumbnailOf(graph, BOX).nodes).toHaveLength(2);
  });
});
