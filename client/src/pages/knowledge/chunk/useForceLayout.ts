import { forceCenter, forceCollide, forceLink, forceManyBody, forceSimulation, type Simulation } from "d3-force";
import { useEffect, useRef, useState } from "react";
import { fittingView, GRAPH_HEIGHT, GRAPH_WIDTH, type GraphEdge, type GraphNode, type GraphView } from "./graphModel";

/**
 * Lays the graph out with d3-force, re-rendering at most once a frame while it moves, and frames it once it settles
 * unless the user has zoomed or panned meanwhile (they call `userMoved`).
 */
export function useForceLayout(nodes: GraphNode[], edges: GraphEdge[], radius: (node: GraphNode) => number) {
  const [, setFrame] = useState(0);
  const [view, setView] = useState<GraphView>({ x: 0, y: 0, k: 1 });
  const simulation = useRef<Simulation<GraphNode, GraphEdge> | null>(null);
  const moved = useRef(false);

  useEffect(() => {
    const sim = forceSimulation(nodes)
      .force("link", forceLink<GraphNode, GraphEdge>(edges).id((node) => node.id).distance(130))
      .force("charge", forceManyBody().strength(-520))
      .force("center", forceCenter(GRAPH_WIDTH / 2, GRAPH_HEIGHT / 2))
      // Room for the label under each node as well as the node itself.
      .force("collide", forceCollide<GraphNode>((node) => radius(node) + 22));
    let scheduled = false;
    sim.on("tick", () => {
      if (scheduled) return;
      scheduled = true;
      requestAnimationFrame(() => {
        scheduled = false;
        setFrame((n) => n + 1);
      });
    });
    const fit = () => {
      if (moved.current || nodes.length === 0) return;
      setView(fittingView(nodes));
    };
    // Most of the settling happens before the first paint, so the graph does not fly apart on screen.
    sim.tick(200);
    fit();
    sim.on("end", fit);
    simulation.current = sim;
    return () => {
      sim.stop();
    };
    // The radius reads the highest pagerank, which follows the nodes.
  }, [nodes, edges]);

  return {
    view,
    /** A change of view by the user: the layout no longer reframes it. */
    moveView(next: GraphView | ((current: GraphView) => GraphView)) {
      moved.current = true;
      setView(next);
    },
    /** Pins a node where it is dragged (null lets it go) and keeps the layout warm meanwhile. */
    pin(node: GraphNode, at: { x: number; y: number } | null) {
      node.fx = at ? at.x : null;
      node.fy = at ? at.y : null;
    },
    warm: (on: boolean) => (on ? simulation.current?.alphaTarget(0.3).restart() : simulation.current?.alphaTarget(0)),
  };
}

export type ForceLayout = ReturnType<typeof useForceLayout>;
