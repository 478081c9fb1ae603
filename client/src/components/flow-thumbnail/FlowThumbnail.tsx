import { Box, Center, Icon } from "@chakra-ui/react";
import { useMemo } from "react";
import { LuWorkflow } from "react-icons/lu";
import { thumbnailOf, type ThumbnailNode } from "./thumbnail";
import { useComponentCategories } from "./useComponentCategories";

/** The colour palette of each component category, as the palette groups them; a note is a yellow sticky. */
const CATEGORY_PALETTE: Record<string, string> = {
  core: "brand",
  knowledge: "green",
  tools: "orange",
  search: "purple",
  data: "teal",
  translation: "pink",
};

const BOX = { width: 240, height: 120 };

interface FlowThumbnailProps {
  /** A flow's drawing: `dsl.graph` or the `outline` of it; anything else draws the empty picture. */
  graph: unknown;
  height?: string;
  testId?: string;
}

/** A small picture of a flow: its components as boxes coloured by category and the connections between them. */
export function FlowThumbnail({ graph, height = "28", testId = "flow-thumbnail" }: FlowThumbnailProps) {
  const categories = useComponentCategories();
  const { nodes, edges } = useMemo(() => thumbnailOf(graph, BOX), [graph]);
  const palette = (node: ThumbnailNode) => (node.note ? "yellow" : (CATEGORY_PALETTE[categories.get(node.componentName ?? "") ?? ""] ?? "gray"));
  return (
    <Box height={height} bg="bg.muted" rounded="l2" overflow="hidden" flexShrink={0} aria-hidden data-testid={testId} data-nodes={nodes.length}>
      {nodes.length === 0 ? (
        <Center height="full" color="fg.subtle">
          <Icon as={LuWorkflow} boxSize="6" />
        </Center>
      ) : (
        <svg viewBox={`0 0 ${BOX.width} ${BOX.height}`} width="100%" height="100%" preserveAspectRatio="xMidYMid meet">
          {edges.map((edge) => (
            <path key={edge.id} d={edge.path} fill="none" stroke="var(--chakra-colors-border-emphasized)" strokeWidth="1" />
          ))}
          {nodes.map((node) => (
            <rect
              key={node.id}
              x={node.x}
              y={node.y}
              width={node.width}
              height={node.height}
              rx={Math.min(3, node.height / 4)}
              fill={`var(--chakra-colors-${palette(node)}-muted)`}
              stroke={`var(--chakra-colors-${palette(node)}-solid)`}
              strokeWidth="0.75"
              opacity={node.note ? 0.7 : 1}
            />
          ))}
        </svg>
      )}
    </Box>
  );
}
