import { expect, test } from "@jest/globals";
import { colourFor, fittingView, GRAPH_HEIGHT, GRAPH_WIDTH, graphOf, radiusFor, zoomedView } from "./graphModel";

/** The knowledge graph's drawing: what is drawn from the server's graph, node sizes, framing and zoom. */

test("nodes take the entity's name and type, and an edge to a missing node is left out", () => {
  const { nodes, edges, types } = graphOf(
    [{ id: "PORT", entityName: "Port", entityType: "place", pagerank: 0.5 }, { id: "SHIP", description: 3 }],
    [{ source: "PORT", target: "SHIP", weight: "2" }, { source: "PORT", target: "GONE" }],
  );
  expect(nodes).toEqual([
    { id: "PORT", name: "Port", type: "place", description: "", pagerank: 0.5 },
    { id: "SHIP", name: "SHIP", type: "unknown", description: "3", pagerank: 0 },
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
  const view = fittingView([{ id: "a", name: "", type: "", description: "", pagerank: 0, x: 100, y: 100 }, { id: "b", name: "", type: "", description: "", pagerank: 0, x: 300, y: 200 }]);
  expect(view.k).toBeLessThanOrEqual(2.2);
  expect(200 * view.k + view.x).toBeCloseTo(GRAPH_WIDTH / 2);
  expect(150 * view.k + view.y).toBeCloseTo(GRAPH_HEIGHT / 2);
  const zoomed = zoomedView({ x: 0, y: 0, k: 1 }, { x: 480, y: 300 }, true);
  expect(zoomed.k).toBeCloseTo(1.1);
  expect((480 - zoomed.x) / zoomed.k).toBeCloseTo(480);
  expect(zoomedView({ x: 0, y: 0, k: 4 }, { x: 0, y: 0 }, true).k).toBe(4);
});
