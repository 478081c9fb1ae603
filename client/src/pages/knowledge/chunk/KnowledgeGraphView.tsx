import { Box, Center, HStack, Stack, Text } from "@chakra-ui/react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { colourFor, GRAPH_HEIGHT, GRAPH_WIDTH, graphOf, radiusFor, type GraphEdge, type GraphNode } from "./graphModel";
import { useForceLayout } from "./useForceLayout";
import { useGraphPointer } from "./useGraphPointer";

/**
 * The knowledge graph as a force-directed layout (d3-force) drawn in SVG: nodes sized by pagerank and coloured
 * by entity type, edges between them. Nodes can be dragged; the wheel zooms and dragging the background pans.
 */
export function KnowledgeGraphView({ nodes: rawNodes, edges: rawEdges }: { nodes: Record<string, unknown>[]; edges: Record<string, unknown>[] }) {
  const { t } = useTranslation();
  const { nodes, edges, types } = useMemo(() => graphOf(rawNodes, rawEdges), [rawNodes, rawEdges]);
  const radius = radiusFor(nodes);
  const colour = colourFor(types);
  const [hovered, setHovered] = useState<GraphNode | null>(null);
  const layout = useForceLayout(nodes, edges, radius);
  const pointer = useGraphPointer(layout);
  const { view } = layout;

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
          ref={pointer.svg}
          viewBox={`0 0 ${GRAPH_WIDTH} ${GRAPH_HEIGHT}`}
          width="100%"
          style={{ display: "block", touchAction: "none", cursor: pointer.dragging() ? "grabbing" : "grab" }}
          onPointerDown={(event) => pointer.pointerDown(event, null)}
          onPointerMove={pointer.pointerMove}
          onPointerUp={pointer.pointerUp}
          onPointerLeave={pointer.pointerUp}
          onWheel={pointer.wheel}
          role="img"
          aria-label={t("kb.chunk.graph")}
        >
          <g transform={`translate(${view.x},${view.y}) scale(${view.k})`}>
            {edges.map((edge, index) => (
              <GraphLine key={index} edge={edge} hovered={hovered} />
            ))}
            {nodes.map((node) => (
              <g
                key={node.id}
                transform={`translate(${node.x ?? 0},${node.y ?? 0})`}
                onPointerDown={(event) => pointer.pointerDown(event, node)}
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
        {hovered && <NodeCard node={hovered} />}
      </Box>
    </Stack>
  );
}

/** An edge, faded when the hovered node is at neither end. */
function GraphLine({ edge, hovered }: { edge: GraphEdge; hovered: GraphNode | null }) {
  const source = edge.source as GraphNode;
  const target = edge.target as GraphNode;
  return (
    <line
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
}

/** The hovered entity: name, type and description. */
function NodeCard({ node }: { node: GraphNode }) {
  return (
    <Box position="absolute" top="3" left="3" maxWidth="sm" bg="bg.panel" borderWidth="1px" rounded="l2" shadow="md" p="3" pointerEvents="none">
      <Text fontWeight="semibold" fontSize="sm">
        {node.name}
      </Text>
      <Text fontSize="xs" color="fg.muted" mb={node.description ? "1" : 0}>
        {node.type}
      </Text>
      {node.description && (
        <Text fontSize="xs" lineClamp={5}>
          {node.description}
        </Text>
      )}
    </Box>
  );
}
