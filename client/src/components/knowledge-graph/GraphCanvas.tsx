import { Box, IconButton, Stack } from "@chakra-ui/react";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LuMaximize, LuMinus, LuPlus } from "react-icons/lu";
import { DEFAULT_SIZE, endId, neighbourhood, radiusFor, zoomedView, type GraphEdge, type GraphNode, type GraphSize } from "./graphModel";
import { useForceLayout } from "./useForceLayout";
import { useGraphPointer } from "./useGraphPointer";

/** Below this many nodes every name is written; above, only the largest ones' until the user zooms in or focuses. */
const ALL_LABELS = 60;
const LABELLED_NODES = 40;
const LABELS_ZOOM = 1.5;

export interface GraphCanvasProps {
  nodes: GraphNode[];
  edges: GraphEdge[];
  colour: (type: string) => string;
  /** The drawing's CSS height; it takes its box's width. */
  height: string;
  ariaLabel: string;
  /** The focused node: it and its neighbours stay bright, the rest fades, and the view centres on it. */
  selectedId?: string | null;
  /** Nodes to ring (search matches). */
  markedIds?: ReadonlySet<string>;
  onSelect?: (node: GraphNode | null) => void;
  onHover?: (node: GraphNode | null) => void;
  /** Drawn over the graph (a hover card, a legend). */
  children?: ReactNode;
}

/**
 * The knowledge graph drawn as a force-directed layout (d3-force) in SVG: nodes sized by rank and coloured by entity
 * type, edges between them. Nodes can be dragged and clicked; the wheel or the buttons zoom, dragging the background
 * pans, and "fit" frames everything again. The chunk page's graph tab and /force both draw with it.
 */
export function GraphCanvas({ nodes, edges, colour, height, ariaLabel, selectedId = null, markedIds, onSelect, onHover, children }: GraphCanvasProps) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<GraphSize>(DEFAULT_SIZE);
  const radius = useMemo(() => radiusFor(nodes), [nodes]);
  const layout = useForceLayout(nodes, edges, radius, size);
  const pointer = useGraphPointer(layout, size, onSelect);
  const [hovered, setHovered] = useState<GraphNode | null>(null);
  const { view } = layout;

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => {
      const { width, height: boxHeight } = element.getBoundingClientRect();
      if (width > 0 && boxHeight > 0) setSize((current) => (current.width === Math.round(width) && current.height === Math.round(boxHeight) ? current : { width: Math.round(width), height: Math.round(boxHeight) }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const selected = useMemo(() => nodes.find((node) => node.id === selectedId) ?? null, [nodes, selectedId]);
  useEffect(() => {
    if (selected) layout.centreOn(selected);
  }, [selected]);

  const bright = useMemo(() => (selected ? neighbourhood(selected.id, edges) : null), [selected, edges]);
  const labelFloor = useMemo(() => [...nodes].sort((a, b) => b.rank - a.rank)[LABELLED_NODES - 1]?.rank ?? 0, [nodes]);
  const labelled = (node: GraphNode) =>
    nodes.length <= ALL_LABELS || view.k >= LABELS_ZOOM || node.rank >= labelFloor || bright?.has(node.id) || markedIds?.has(node.id) || hovered === node;

  // Zoomed in, names keep their size on screen instead of growing with the drawing. (A style, not the font-size
  // attribute, which the page's CSS overrides.)
  const labelScale = Math.max(1, view.k);
  const hover = (node: GraphNode | null) => {
    setHovered(node);
    onHover?.(node);
  };
  const zoomBy = (zoomIn: boolean) => layout.moveView((current) => zoomedView(current, { x: size.width / 2, y: size.height / 2 }, zoomIn, 1.3));

  return (
    <Box ref={box} position="relative" height={height} bg="bg.panel" overflow="hidden">
      <svg
        ref={pointer.svg}
        viewBox={`0 0 ${size.width} ${size.height}`}
        width="100%"
        height="100%"
        style={{ display: "block", touchAction: "none", cursor: pointer.dragging() ? "grabbing" : "grab" }}
        onPointerDown={(event) => pointer.pointerDown(event, null)}
        onPointerMove={pointer.pointerMove}
        onPointerUp={pointer.pointerUp}
        onPointerLeave={pointer.pointerCancel}
        onWheel={pointer.wheel}
        role="img"
        aria-label={ariaLabel}
        data-testid="graph-canvas"
      >
        <g transform={`translate(${view.x},${view.y}) scale(${view.k})`}>
          {edges.map((edge, index) => {
            const source = edge.source as GraphNode;
            const target = edge.target as GraphNode;
            const lit = bright ? endId(edge.source) === selected?.id || endId(edge.target) === selected?.id : !hovered || hovered === source || hovered === target;
            return (
              <line
                key={index}
                x1={source.x}
                y1={source.y}
                x2={target.x}
                y2={target.y}
                stroke={bright && lit ? "var(--chakra-colors-brand-solid)" : "var(--chakra-colors-border-emphasized)"}
                strokeWidth={Math.min(4, 0.8 + Math.log1p(edge.weight)) / Math.sqrt(view.k)}
                strokeOpacity={lit ? 0.9 : bright ? 0.12 : 0.25}
              >
                <title>{edge.description || `${source.name} — ${target.name}`}</title>
              </line>
            );
          })}
          {nodes.map((node) => {
            const dim = bright ? !bright.has(node.id) : hovered !== null && hovered !== node;
            const marked = markedIds?.has(node.id) || node === selected;
            return (
              <g
                key={node.id}
                transform={`translate(${node.x ?? 0},${node.y ?? 0})`}
                onPointerDown={(event) => pointer.pointerDown(event, node)}
                onPointerEnter={() => hover(node)}
                onPointerLeave={() => hover(null)}
                style={{ cursor: "pointer" }}
                opacity={dim ? (bright ? 0.2 : 0.7) : 1}
                data-testid="graph-node"
                data-name={node.name}
                data-selected={node === selected || undefined}
              >
                {marked && <circle r={radius(node) + 5} fill="none" stroke="var(--chakra-colors-brand-solid)" strokeWidth={node === selected ? 3 : 2} />}
                <circle r={radius(node)} fill={colour(node.type)} stroke="var(--chakra-colors-bg-panel)" strokeWidth={1.5} />
                {labelled(node) && (
                  <text y={radius(node) + 12 / labelScale} textAnchor="middle" fill="var(--chakra-colors-fg)" stroke="var(--chakra-colors-bg-panel)" strokeWidth={3 / labelScale} paintOrder="stroke" style={{ fontSize: 11 / labelScale, pointerEvents: "none", userSelect: "none" }}>
                    {node.name.length > 24 ? `${node.name.slice(0, 23)}…` : node.name}
                  </text>
                )}
                <title>{`${node.name} (${node.type})`}</title>
              </g>
            );
          })}
        </g>
      </svg>
      <Stack position="absolute" bottom="3" right="3" gap="1" bg="bg.panel" borderWidth="1px" rounded="l2" shadow="sm" p="1">
        <IconButton size="xs" variant="ghost" aria-label={t("force.canvas.zoomIn")} title={t("force.canvas.zoomIn")} onClick={() => zoomBy(true)} data-testid="graph-zoom-in">
          <LuPlus />
        </IconButton>
        <IconButton size="xs" variant="ghost" aria-label={t("force.canvas.zoomOut")} title={t("force.canvas.zoomOut")} onClick={() => zoomBy(false)} data-testid="graph-zoom-out">
          <LuMinus />
        </IconButton>
        <IconButton size="xs" variant="ghost" aria-label={t("force.canvas.fit")} title={t("force.canvas.fit")} onClick={() => layout.fit()} data-testid="graph-fit">
          <LuMaximize />
        </IconButton>
      </Stack>
      {children}
    </Box>
  );
}
