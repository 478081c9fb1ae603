import { useRef, type PointerEvent, type WheelEvent } from "react";
import { GRAPH_HEIGHT, GRAPH_WIDTH, zoomedView, type GraphNode } from "./graphModel";
import type { ForceLayout } from "./useForceLayout";

/** Dragging a node moves it, dragging the background pans, the wheel zooms around the pointer. */
export function useGraphPointer(layout: ForceLayout) {
  const svg = useRef<SVGSVGElement>(null);
  const drag = useRef<{ node: GraphNode | null; startX: number; startY: number; view: { x: number; y: number } } | null>(null);
  const { view } = layout;

  /** A pointer position in the drawing's coordinates (raw) and in the graph's, under the current view. */
  function graphPoint(event: { clientX: number; clientY: number }) {
    const box = svg.current!.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * GRAPH_WIDTH;
    const y = ((event.clientY - box.top) / box.height) * GRAPH_HEIGHT;
    return { x: (x - view.x) / view.k, y: (y - view.y) / view.k, rawX: x, rawY: y };
  }

  return {
    svg,
    dragging: () => drag.current !== null,
    pointerDown(event: PointerEvent, node: GraphNode | null) {
      event.stopPropagation();
      (event.target as Element).setPointerCapture?.(event.pointerId);
      const point = graphPoint(event);
      drag.current = { node, startX: point.rawX, startY: point.rawY, view: { x: view.x, y: view.y } };
      if (node) {
        layout.pin(node, { x: node.x!, y: node.y! });
        layout.warm(true);
      }
    },
    pointerMove(event: PointerEvent) {
      const current = drag.current;
      if (!current) return;
      const point = graphPoint(event);
      if (current.node) layout.pin(current.node, point);
      else layout.moveView((v) => ({ ...v, x: current.view.x + point.rawX - current.startX, y: current.view.y + point.rawY - current.startY }));
    },
    pointerUp() {
      const node = drag.current?.node;
      if (node) {
        layout.pin(node, null);
        layout.warm(false);
      }
      drag.current = null;
    },
    wheel(event: WheelEvent) {
      const point = graphPoint(event);
      layout.moveView(zoomedView(view, { x: point.rawX, y: point.rawY }, event.deltaY < 0));
    },
  };
}
