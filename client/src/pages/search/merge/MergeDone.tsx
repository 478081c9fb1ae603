import { Button, Center, Icon, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuCircleCheck, LuLayers } from "react-icons/lu";
import { Link as RouterLink } from "react-router-dom";
import type { MergeChunksMutation } from "../../../graphql/gql/graphql";

/** After a merge: what was made, and the way to the chunk page of the document that holds it. */
export function MergeDone({ result }: { result: MergeChunksMutation["mergeChunks"] }) {
  const { t } = useTranslation();
  const { document } = result;
  return (
    <Center py="14" px="6" flexDirection="column" gap="3" bg="bg.panel" borderWidth="1px" rounded="l3" textAlign="center" role="status" data-testid="merge-done">
      <Icon as={LuCircleCheck} boxSize="8" color="fg.success" />
      <Text fontWeight="semibold">{t("merge.doneTitle")}</Text>
      <Text color="fg.muted">{result.chunk ? t("merge.doneChunk", { document: document.name }) : t("merge.doneDocument", { document: document.name })}</Text>
      <Button asChild size="sm" colorPalette="brand" mt="2">
        <RouterLink to={`/knowledge/dataset/chunk?id=${document.knowledgeBaseId}&doc=${document.id}`} data-testid="merge-open-chunks">
          <LuLayers /> {t("merge.openChunks")}
        </RouterLink>
      </Button>
    </Center>
  );
}
