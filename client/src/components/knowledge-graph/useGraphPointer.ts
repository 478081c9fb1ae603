import { useRef, type PointerEvent, type WheelEvent } from "react";
import { zoomedView, type GraphNode, type GraphSize } from "./graphModel";
import type { ForceLayout } from "./useForceLayout";

/** A press that moves less than this (in pixels) is a click, not a drag. */
const CLICK_SLOP = 4;

/**
 * Dragging a node moves it, dragging the background pans, the wheel zooms around the pointer; a click (a press
 * that hardly moves) on a node or on the background is reported to `onClick`.
 */
export function useGraphPointer(layout: ForceLayout, size: GraphSize, onClick?: (node: GraphNode | null) => void) {
  const svg = useRef<SVGSVGElement>(null);
  const drag = useRef<{ node: GraphNode | null; startX: number; startY: number; view: { x: number; y: number }; moved: boolean } | null>(null);
  const { view } = layout;

  /** A pointer position in the drawing's coordinates (raw) and in the graph's, under the current view. */
  function graphPoint(event: { clientX: number; clientY: number }) {
    const box = svg.current!.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * size.width;
    const y = ((event.clientY - box.top) / box.height) * size.height;
    return { x: (x - view.x) / view.k, y: (y - view.y) / view.k, rawX: x, rawY: y };
  }

  return {
    svg,
    dragging: () => drag.current !== null,
    pointerDown(event: PointerEvent, node: GraphNode | null) {
      event.stopPropagation();
      (event.target as Element).setPointerCapture?.(event.pointerId);
      const point = graphPoint(event);
      drag.current = { node, startX: point.rawX, startY: point.rawY, view: { x: view.x, y: view.y }, moved: false };
      if (node) layout.pin(node, { x: node.x!, y: node.y! });
    },
    pointerMove(event: PointerEvent) {
      const current = drag.current;
      if (!current) return;
      const point = graphPoint(event);
      if (!current.moved && Math.hypot(point.rawX - current.startX, point.rawY - current.startY) < CLICK_SLOP) return;
      if (!current.moved && current.node) layout.warm(true);
      current.moved = true;
      if (current.node) layout.pin(current.node, point);
      else layout.moveView((v) => ({ ...v, x: current.view.x + point.rawX - current.startX, y: current.view.y + point.rawY - current.startY }));
    },
    pointerUp() {
      const current = drag.current;
      drag.current = null;
      if (!current) return;
      if (current.node) {
        layout.pin(current.node, null);
        if (current.moved) layout.warm(false);
      }
      if (!current.moved) onClick?.(current.node);
    },
    /** The pointer left the drawing mid-press: whatever it was doing stops, and it was no click. */
    pointerCancel() {
      const node = drag.current?.node;
      drag.current = null;
      if (node) {
        layout.pin(node, null);
        layout.warm(false);
      }
    },
    wheel(event: WheelEvent) {
      const point = graphPoint(event);
      layout.moveView(zoomedView(view, { x: point.rawX, y: point.rawY }, event.deltaY < 0));
    },
  };
}
