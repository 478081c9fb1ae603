import { Box, Button, Center, HStack, Stack, Text } from "@chakra-ui/react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { LuNetwork } from "react-icons/lu";
import { Link as RouterLink } from "react-router-dom";
import { GraphCanvas } from "./GraphCanvas";
import { GraphLegend } from "./GraphLegend";
import { colourFor, graphOf, type GraphNode } from "./graphModel";

/** A knowledge base's graph as the chunk page shows it: the legend, the drawing, and a card for the hovered entity. */
export function KnowledgeGraphView({ knowledgeBaseId, nodes: rawNodes, edges: rawEdges }: { knowledgeBaseId: string; nodes: Record<string, unknown>[]; edges: Record<string, unknown>[] }) {
  const { t } = useTranslation();
  const { nodes, edges, types } = useMemo(() => graphOf(rawNodes, rawEdges), [rawNodes, rawEdges]);
  const colour = colourFor(types);
  const [hovered, setHovered] = useState<GraphNode | null>(null);

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
        <GraphLegend types={types} colour={colour} />
        <Text ms="auto">{t("kb.chunk.graphHint")}</Text>
        <Button asChild size="xs" variant="outline" data-testid="graph-open-explorer">
          <RouterLink to={`/force?kb=${knowledgeBaseId}`}>
            <LuNetwork /> {t("force.openExplorer")}
          </RouterLink>
        </Button>
      </HStack>
      <Box borderWidth="1px" rounded="l3" overflow="hidden">
        <GraphCanvas nodes={nodes} edges={edges} colour={colour} height="600px" ariaLabel={t("kb.chunk.graph")} onHover={setHovered}>
          {hovered && <NodeCard node={hovered} />}
        </GraphCanvas>
      </Box>
    </Stack>
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
