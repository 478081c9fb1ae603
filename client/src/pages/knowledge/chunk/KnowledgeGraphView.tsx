import { Box, Center, HStack, Stack, Text } from "@chakra-ui/react";
import { forceCenter, forceCollide, forceLink, forceManyBody, forceSimulation, type Simulation, type SimulationLinkDatum, type SimulationNodeDatum } from "d3-force";
import { useEffect, useMemo, useRef, useState, type PointerEvent, type WheelEvent } from "react";
import { useTranslation } from "react-i18next";

interface GraphNode extends SimulationNodeDatum {
  id: string;
  name: string;
  type: string;
  description: string;
  pagerank: number;
}

interface GraphEdge extends SimulationLinkDatum<GraphNode> {
  description: string;
  weight: number;
}

/** One colour per entity type, readable on light and dark surfaces. */
const PALETTE = ["#2791ad", "#e07a3f", "#5b8c3a", "#a05ec4", "#d4a017", "#c74a6b", "#3f7fd9", "#7b8b99", "#2fa38a", "#b36b2d"];
const WIDTH = 960;
const HEIGHT = 600;

const text = (value: unknown) => (typeof value === "string" ? value : value == null ? "" : String(value));

/**
 * The knowledge graph as a force-directed layout (d3-force) drawn in SVG: nodes sized by pagerank and coloured
 * by entity type, edges between them. Nodes can be dragged; the wheel zooms and dragging the background pans.
 */
export function KnowledgeGraphView({ nodes: rawNodes, edges: rawEdges }: { nodes: Record<string, unknown>[]; edges: Record<string, unknown>[] }) {
  const { t } = useTranslation();
  const { nodes, edges, types } = useMemo(() => {
    const nodes: GraphNode[] = rawNodes.map((node) => ({
      id: text(node.id),
      name: text(node.entityName ?? node.id),
      type: text(node.entityType) || "unknown",
      description: text(node.description),
      pagerank: Number(node.pagerank) || 0,
    }));
    const ids = new Set(nodes.map((node) => node.id));
    const edges: GraphEdge[] = rawEdges
      .filter((edge) => ids.has(text(edge.source)) && ids.has(text(edge.target)))
      .map((edge) => ({ source: text(edge.source), target: text(edge.target), description: text(edge.description), weight: Number(edge.weight) || 1 }));
    const types = [...new Set(nodes.map((node) => node.type))];
    return { nodes, edges, types };
  }, [rawNodes, rawEdges]);
  const maxRank = Math.max(...nodes.map((node) => node.pagerank), 1e-9);
  const radius = (node: GraphNode) => 6 + Math.sqrt(node.pagerank / maxRank) * 16;
  const colour = (type: string) => PALETTE[types.indexOf(type) % PALETTE.length];

  const [, setFrame] = useState(0);
  const [view, setView] = useState({ x: 0, y: 0, k: 1 });
  const [hovered, setHovered] = useState<GraphNode | null>(null);
  const simulation = useRef<Simulation<GraphNode, GraphEdge> | null>(null);
  const svg = useRef<SVGSVGElement>(null);
  const userMoved = useRef(false);
  const drag = useRef<{ node: GraphNode | null; startX: number; startY: number; view: { x: number; y: number } } | null>(null);

  useEffect(() => {
    const sim = forceSimulation(nodes)
      .force("link", forceLink<GraphNode, GraphEdge>(edges).id((node) => node.id).distance(130))
      .force("charge", forceManyBody().strength(-520))
      .force("center", forceCenter(WIDTH / 2, HEIGHT / 2))
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
    // Once the layout settles, frame it — unless the user has zoomed or panned meanwhile.
    const fit = () => {
      if (userMoved.current || nodes.length === 0) return;
      const xs = nodes.map((node) => node.x ?? 0);
      const ys = nodes.map((node) => node.y ?? 0);
      const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
      const k = Math.min(2.2, WIDTH / (maxX - minX + 200), HEIGHT / (maxY - minY + 140));
      setView({ k, x: WIDTH / 2 - ((minX + maxX) / 2) * k, y: HEIGHT / 2 - ((minY + maxY) / 2) * k });
    };
    // Most of the settling happens before the first paint, so the graph does not fly apart on screen.
    sim.tick(200);
    fit();
    sim.on("end", fit);
    simulation.current = sim;
    return () => {
      sim.stop();
    };
    // The radius reads maxRank, which follows the nodes.
  }, [nodes, edges]);

  /** A pointer position in the graph's own coordinates. */
  function graphPoint(event: PointerEvent) {
    const box = svg.current!.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * WIDTH;
    const y = ((event.clientY - box.top) / box.height) * HEIGHT;
    return { x: (x - view.x) / view.k, y: (y - view.y) / view.k, rawX: x, rawY: y };
  }

  function pointerDown(event: PointerEvent, node: GraphNode | null) {
    event.stopPropagation();
    (event.target as Element).setPointerCapture?.(event.pointerId);
    const point = graphPoint(event);
    drag.current = { node, startX: point.rawX, startY: point.rawY, view: { x: view.x, y: view.y } };
    if (node) {
      node.fx = node.x;
      node.fy = node.y;
      simulation.current?.alphaTarget(0.3).restart();
    }
  }

  function pointerMove(event: PointerEvent) {
    const current = drag.current;
    if (!current) return;
    const point = graphPoint(event);
    if (current.node) {
      current.node.fx = point.x;
      current.node.fy = point.y;
    } else {
      userMoved.current = true;
      setView((v) => ({ ...v, x: current.view.x + point.rawX - current.startX, y: current.view.y + point.rawY - current.startY }));
    }
  }

  function pointerUp() {
    const node = drag.current?.node;
    if (node) {
      node.fx = null;
      node.fy = null;
      simulation.current?.alphaTarget(0);
    }
    drag.current = null;
  }

  function wheel(event: WheelEvent) {
    userMoved.current = true;
    const box = svg.current!.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * WIDTH;
    const y = ((event.clientY - box.top) / box.height) * HEIGHT;
    const k = Math.min(4, Math.max(0.3, view.k * (event.deltaY < 0 ? 1.1 : 1 / 1.1)));
    setView({ k, x: x - ((x - view.x) / view.k) * k, y: y - ((y - view.y) / view.k) * k });
  }

  if (nodes.length === 0) {
    return (
      <Center py="16" bg="bg.panel" borderWidth="1px" rounded="l3" color="fg.muted" data-testid="graph-empty">
        {t("kb.chunk.graphEmpty")}
      </Center>
    );
  }

  return (
    <Stack gap="3" data-testid="knowledge-graph">
      <HStack gap="4" wrap="wrap" fontSize="xs" color="fg.muted">
        {types.map((type) => (
          <HStack key={type} gap="1.5">
            <Box boxSize="2.5" rounded="full" style={{ background: colour(type) }} />
            <Text>{type}</Text>
          </HStack>
        ))}
        <Text ms="auto">{t("kb.chunk.graphHint")}</Text>
      </HStack>
      <Box position="relative" bg="bg.panel" borderWidth="1px" rounded="l3" overflow="hidden">
        <svg
          ref={svg}
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          width="100%"
          style={{ display: "block", touchAction: "none", cursor: drag.current ? "grabbing" : "grab" }}
          onPointerDown={(event) => pointerDown(event, null)}
          onPointerMove={pointerMove}
          onPointerUp={pointerUp}
          onPointerLeave={pointerUp}
          onWheel={wheel}
          role="img"
          aria-label={t("kb.chunk.graph")}
        >
          <g transform={`translate(${view.x},${view.y}) scale(${view.k})`}>
            {edges.map((edge, index) => {
              const source = edge.source as GraphNode;
              const target = edge.target as GraphNode;
              return (
                <line
                  key={index}
                  x1={source.x}
                  y1={source.y}
                  x2={target.x}
                  y2={target.y}
                  stroke="var(--chakra-colors-border-emphasized)"
                  strokeWidth={Math.min(4, 0.8 + Math.log1p(edge.weight))}
                  strokeOpacity={hovered && hovered !== source && hovered !== target ? 0.25 : 0.9}
                >
                  <title>{edge.description || `${source.name} — ${target.name}`}</title>
                </line>
              );
            })}
            {nodes.map((node) => (
              <g
                key={node.id}
                transform={`translate(${node.x ?? 0},${node.y ?? 0})`}
                onPointerDown={(event) => pointerDown(event, node)}
                onPointerEnter={() => setHovered(node)}
                onPointerLeave={() => setHovered(null)}
                style={{ cursor: "pointer" }}
                opacity={hovered && hovered !== node ? 0.7 : 1}
                data-testid="graph-node"
              >
                <circle r={radius(node)} fill={colour(node.type)} stroke="var(--chakra-colors-bg-panel)" strokeWidth={1.5} />
                <text y={radius(node) + 12} textAnchor="middle" fontSize={11} fill="var(--chakra-colors-fg)" stroke="var(--chakra-colors-bg-panel)" strokeWidth={3} paintOrder="stroke" style={{ pointerEvents: "none", userSelect: "none" }}>
                  {node.name.length > 24 ? `${node.name.slice(0, 23)}…` : node.name}
                </text>
                <title>{`${node.name} (${node.type})${node.description ? `\n${node.description}` : ""}`}</title>
              </g>
            ))}
          </g>
        </svg>
        {hovered && (
          <Box position="absolute" top="3" left="3" maxWidth="sm" bg="bg.panel" borderWidth="1px" rounded="l2" shadow="md" p="3" pointerEvents="none">
            <Text fontWeight="semibold" fontSize="sm">
              {hovered.name}
            </Text>
            <Text fontSize="xs" color="fg.muted" mb={hovered.description ? "1" : 0}>
              {hovered.type}
            </Text>
            {hovered.description && (
              <Text fontSize="xs" lineClamp={5}>
                {hovered.description}
              </Text>
            )}
          </Box>
        )}
      </Box>
    </Stack>
  );
}
