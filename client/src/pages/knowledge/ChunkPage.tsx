import { Button, Center, Stack, Tabs } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useTranslation } from "react-i18next";
import { LuArrowLeft, LuLayers, LuNetwork, LuWorkflow } from "react-icons/lu";
import { Link as RouterLink, useSearchParams } from "react-router-dom";
import { KnowledgeBaseTasksDocument, type KnowledgeBaseSettingsFragment } from "../../graphql/gql/graphql";
import { ChunkList } from "./chunk/ChunkList";
import { GraphTab } from "./chunk/GraphTab";
import { KnowledgeBaseLayout } from "./KnowledgeBaseLayout";

function Chunks({ kb }: { kb: KnowledgeBaseSettingsFragment }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const documentId = params.get("doc") ?? "";
  const { data: tasks } = useQuery(KnowledgeBaseTasksDocument, { variables: { knowledgeBaseId: kb.id } });
  // The graph belongs to the knowledge base: built by its GraphRAG task, whatever the documents' chunk method.
  const isGraph = kb.chunkMethod === "knowledge_graph" || !!tasks?.knowledgeBaseTasks.some((task) => task.kind === "GRAPHRAG" && task.status === "DONE");

  const back = (
    <Button asChild variant="ghost" size="sm" alignSelf="flex-start" color="fg.muted" px="2" mb="2">
      <RouterLink to={`/knowledge/dataset?id=${kb.id}`}>
        <LuArrowLeft /> {t("kb.nav.dataset")}
      </RouterLink>
    </Button>
  );
  if (!documentId) {
    return (
      <Stack>
        {back}
        <Center py="16" color="fg.muted" role="alert">
          {t("errors.knowledge.documentNotFound")}
        </Center>
      </Stack>
    );
  }
  // ?search= opens the page filtered, as /force links a document's chunks that mention an entity.
  const list = <ChunkList documentId={documentId} initialSearch={params.get("search") ?? ""} />;
  return (
    <Stack gap="2">
      {back}
      {isGraph ? (
        <Tabs.Root defaultValue="chunks" variant="line" colorPalette="brand" lazyMount>
          <Tabs.List mb="4">
            <Tabs.Trigger value="chunks" data-testid="tab-chunks">
              <LuLayers /> {t("kb.chunk.tab")}
            </Tabs.Trigger>
            <Tabs.Trigger value="graph" data-testid="tab-graph">
              <LuNetwork /> {t("kb.chunk.graph")}
            </Tabs.Trigger>
            <Tabs.Trigger value="mindMap" data-testid="tab-mind-map">
              <LuWorkflow /> {t("kb.chunk.mindMap")}
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="chunks">{list}</Tabs.Content>
          <Tabs.Content value="graph">
            <GraphTab knowledgeBaseId={kb.id} mode="graph" />
          </Tabs.Content>
          <Tabs.Content value="mindMap">
            <GraphTab knowledgeBaseId={kb.id} mode="mindMap" />
          </Tabs.Content>
        </Tabs.Root>
      ) : (
        list
      )}
    </Stack>
  );
}

export default function ChunkPage() {
  return <KnowledgeBaseLayout section="dataset">{(kb) => <Chunks kb={kb} />}</KnowledgeBaseLayout>;
}
