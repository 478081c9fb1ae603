import { Box, Button, Center, HStack, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuFileUp, LuSearchX, LuSparkles } from "react-icons/lu";
import { FlowThumbnail } from "../../../components/flow-thumbnail/FlowThumbnail";

/** Begin → Retrieval → Generate → Answer: the flow most agents start as, drawn to show what a flow is. */
const EXAMPLE_GRAPH = {
  nodes: [
    { id: "begin", position: { x: 0, y: 60 } },
    { id: "Retrieval:Docs", position: { x: 260, y: 0 } },
    { id: "Categorize:Topic", position: { x: 260, y: 120 } },
    { id: "Generate:Reply", position: { x: 520, y: 60 } },
    { id: "Answer:Chat", position: { x: 780, y: 60 } },
  ],
  edges: [
    { source: "begin", target: "Retrieval:Docs" },
    { source: "begin", target: "Categorize:Topic" },
    { source: "Retrieval:Docs", target: "Generate:Reply" },
    { source: "Categorize:Topic", target: "Generate:Reply" },
    { source: "Generate:Reply", target: "Answer:Chat" },
  ],
};

interface FlowListEmptyProps {
  onCreate: () => void;
  onImport: () => void;
  importing: boolean;
}

/** No flows yet: what an agent flow is, and the two ways to get one. */
export function FlowListEmpty({ onCreate, onImport, importing }: FlowListEmptyProps) {
  const { t } = useTranslation();
  return (
    <Center py="12" px="6" bg="bg.panel" borderWidth="1px" borderStyle="dashed" rounded="l3" data-testid="flow-empty">
      <Stack gap="5" align="center" textAlign="center" maxWidth="xl">
        <Box width="full" maxWidth="sm">
          <FlowThumbnail graph={EXAMPLE_GRAPH} height="36" testId="flow-empty-example" />
        </Box>
        <Stack gap="2">
          <Text fontWeight="semibold" fontSize="lg">
            {t("flow.list.emptyTitle")}
          </Text>
          <Text color="fg.muted">{t("flow.list.emptyBody")}</Text>
          <Text color="fg.muted" fontSize="sm">
            {t("flow.list.emptyHint")}
          </Text>
        </Stack>
        <HStack gap="3" wrap="wrap" justify="center">
          <Button colorPalette="brand" onClick={onCreate} data-testid="flow-empty-create">
            <LuSparkles /> {t("flow.list.createFromTemplate")}
          </Button>
          <Button variant="outline" onClick={onImport} loading={importing} data-testid="flow-empty-import">
            <LuFileUp /> {t("flow.list.import")}
          </Button>
        </HStack>
      </Stack>
    </Center>
  );
}

/** A search that matches no flow, with the way back to all of them. */
export function FlowSearchEmpty({ search, onClear }: { search: string; onClear: () => void }) {
  const { t } = useTranslation();
  return (
    <Center py="16" px="6" flexDirection="column" gap="3" textAlign="center" bg="bg.panel" borderWidth="1px" borderStyle="dashed" rounded="l3" data-testid="flow-search-empty">
      <Box rounded="full" bg="bg.muted" color="fg.muted" p="4">
        <LuSearchX size="24" />
      </Box>
      <Text fontWeight="semibold">{t("flow.list.noMatch", { search })}</Text>
      <Button size="sm" variant="outline" onClick={onClear} data-testid="flow-search-clear">
        {t("flow.list.clearSearch")}
      </Button>
    </Center>
  );
}
