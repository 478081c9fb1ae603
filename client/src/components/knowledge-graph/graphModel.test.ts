import { expect, test } from "@jest/globals";
import { carryPositions, centredView, colourFor, fittingView, GRAPH_HEIGHT, GRAPH_WIDTH, graphOf, neighbourhood, radiusFor, zoomedView, type GraphNode } from "./graphModel";

/** The knowledge graph's drawing: what is drawn from the server's graph, node sizes, framing and zoom. */

test("nodes take the entity's name and type, and an edge to a missing node is left out", () => {
  const { nodes, edges, types } = graphOf(
    [{ id: "PORT", entityName: "Port", entityType: "place", pagerank: 0.5 }, { id: "SHIP", description: 3 }],
    [{ source: "PORT", target: "SHIP", weight: "2" }, { source: "PORT", target: "GONE" }],
  );
  expect(nodes).toEqual([
    { id: "PORT", name: "Port", type: "place", description: "", rank: 0.5 },
    { id: "SHIP", name: "SHIP", type: "unknown", description: "3", rank: 0 },
  ]);
  expect(edges).toEqual([{ source: "PORT", target: "SHIP", description: "", weight: 2 }]);
  expect(types).toEqual(["place", "unknown"]);
});

test("the highest-ranked node is drawn largest, and each type has its colour", () => {
  const { nodes, types } = graphOf([{ id: "a", pagerank: 1 }, { id: "b", pagerank: 0.25, entityType: "x" }], []);
  const radius = radiusFor(nodes);
  expect(radius(nodes[0])).toBe(22);
  expect(radius(nodes[1])).toBe(14);
  const colour = colourFor(types);
  expect(colour("unknown")).not.toBe(colour("x"));
});

test("the fitted view centres the nodes, and zooming keeps the point under the pointer in place", () => {
  const view = fittingView([{ id: "a", name: "", type: "", description: "", rank: 0, x: 100, y: 100 }, { id: "b", name: "", type: "", description: "", rank: 0, x: 300, y: 200 }]);
  expect(view.k).toBeLessThanOrEqual(1.6);
  expect(200 * view.k + view.x).toBeCloseTo(GRAPH_WIDTH / 2);
  expect(150 * view.k + view.y).toBeCloseTo(GRAPH_HEIGHT / 2);
  const zoomed = zoomedView({ x: 0, y: 0, k: 1 }, { x: 480, y: 300 }, true);
  expect(zoomed.k).toBeCloseTo(1.1);
  expect((480 - zoomed.x) / zoomed.k).toBeCloseTo(480);
  expect(zoomedView({ x: 0, y: 0, k: 4 }, { x: 0, y: 0 }, true).k).toBe(4);
});

const node = (id: string, x?: number, y?: number): GraphNode => ({ id, name: id, type: "t", description: "", rank: 1, ...(x === undefined ? {} : { x, y }) });

test("a node's neighbourhood is itself and the nodes it shares an edge with, whichever way the edge points", () => {
  const edges = [{ source: "a", target: "b", description: "", weight: 1 }, { source: "c", target: "a", description: "", weight: 1 }, { source: "b", target: "c", description: "", weight: 1 }];
  expect(neighbourhood("a", edges)).toEqual(new Set(["a", "b", "c"]));
  expect(neighbourhood("d", edges)).toEqual(new Set(["d"]));
});

test("growing the graph keeps drawn nodes where they were and places new ones beside a drawn neighbour", () => {
  const edges = [{ source: "old", target: "new", description: "", weight: 1 }];
  const [kept, added, alone] = carryPositions([node("old", 100, 50)], [node("old"), node("new"), node("alone")], edges);
  expect([kept.x, kept.y]).toEqual([100, 50]);
  expect(Math.hypot(added.x! - 100, added.y! - 50)).toBeCloseTo(40);
  expect(alone.x).toBeUndefined();
  const [near] = carryPositions([], [node("alone")], [], { x: -10, y: 10 });
  expect(Math.hypot(near.x! + 10, near.y! - 10)).toBeCloseTo(40);
});

test("centring on a node puts it in the middle, zoomed in enough to read its neighbours", () => {
  const size = { width: 1000, height: 800 };
  const view = centredView({ x: 0, y: 0, k: 0.5 }, { x: 30, y: -20 }, size);
  expect(view.k).toBe(1.2);
  expect(30 * view.k + view.x).toBeCloseTo(500);
  expect(-20 * view.k + view.y).toBeCloseTo(400);
  expect(centredView({ x: 0, y: 0, k: 3 }, { x: 0, y: 0 }, size).k).toBe(3);
});
