import { forceCollide, forceLink, forceManyBody, forceSimulation, forceX, forceY, type Simulation } from "d3-force";
import { useEffect, useRef, useState } from "react";
import { centredView, fittingView, type GraphEdge, type GraphNode, type GraphSize, type GraphView } from "./graphModel";

/** Past this many nodes the layout settles entirely before the first paint: re-rendering hundreds of nodes a frame stutters. */
const ANIMATED_NODES = 150;

/**
 * Lays the graph out with d3-force around (0, 0), re-rendering at most once a frame while it moves, and frames it
 * in `size` once it settles unless the user has zoomed or panned meanwhile (they call `moveView`). Nodes that
 * arrive already placed (carryPositions) only settle, so that growing the graph does not shake it.
 */
export function useForceLayout(nodes: GraphNode[], edges: GraphEdge[], radius: (node: GraphNode) => number, size: GraphSize) {
  const [, setFrame] = useState(0);
  const [view, setView] = useState<GraphView>(() => fittingView([], size));
  const simulation = useRef<Simulation<GraphNode, GraphEdge> | null>(null);
  const moved = useRef(false);
  const sizeNow = useRef(size);
  sizeNow.current = size;

  useEffect(() => {
    const placed = nodes.filter((node) => node.x !== undefined).length;
    const sim = forceSimulation(nodes)
      .force("link", forceLink<GraphNode, GraphEdge>(edges).id((node) => node.id).distance(130))
      .force("charge", forceManyBody().strength(-520))
      // Gentle pulls to the middle keep unconnected entities (and other knowledge bases' graphs) in sight.
      .force("x", forceX(0).strength(0.04))
      .force("y", forceY(0).strength(0.04))
      // Room for the label under each node as well as the node itself.
      .force("collide", forceCollide<GraphNode>((node) => radius(node) + 22));
    if (placed > nodes.length / 2) sim.alpha(0.3);
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
      setView(fittingView(nodes, sizeNow.current));
    };
    // Most of the settling happens before the first paint, so the graph does not fly apart on screen.
    sim.tick(nodes.length > ANIMATED_NODES ? 300 : 200);
    fit();
    sim.on("end", fit);
    simulation.current = sim;
    return () => {
      sim.stop();
    };
    // The radius reads the highest rank, which follows the nodes.
  }, [nodes, edges]);

  // A resized drawing is framed again, unless the user chose their own view.
  useEffect(() => {
    if (!moved.current && nodes.length > 0) setView(fittingView(nodes, size));
  }, [size.width, size.height]);

  return {
    view,
    /** A change of view by the user: the layout no longer reframes it. */
    moveView(next: GraphView | ((current: GraphView) => GraphView)) {
      moved.current = true;
      setView(next);
    },
    /** Frames every node again, and lets the layout reframe it as it settles. */
    fit() {
      moved.current = false;
      setView(fittingView(nodes, sizeNow.current));
    },
    /** Brings a node to the middle. */
    centreOn(node: GraphNode) {
      moved.current = true;
      setView((current) => centredView(current, node, sizeNow.current));
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
