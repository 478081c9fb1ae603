import { Badge, Button, Flex, HStack, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuExternalLink, LuPlus } from "react-icons/lu";
import { Link as RouterLink } from "react-router-dom";
import { RUN_COLORS, RUN_KEYS } from "../../../documents/runStatus";
import { useFormatters } from "../../../format";
import { MergedFrom } from "./MergedFrom";
import type { ChunkList } from "./useChunkList";

/** The document whose chunks these are: name, parsing status, chunk count and method, a preview link and "add chunk". */
export function ChunkDocumentHeader({ document, onAdd }: { document: NonNullable<ChunkList["document"]>; onAdd: () => void }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <Flex gap="3" align="center" wrap="wrap" bg="bg.panel" borderWidth="1px" rounded="l3" px="4" py="3" data-testid="chunk-document">
      <Stack gap="0.5" flex="1" minWidth="0">
        <Text fontWeight="semibold" truncate title={document.name}>
          {document.name}
        </Text>
        <HStack gap="2" fontSize="xs" color="fg.muted" wrap="wrap">
          <Badge colorPalette={RUN_COLORS[document.run] ?? "gray"} variant="subtle" size="sm">
            {t(`kb.run.${RUN_KEYS[document.run] ?? "unstarted"}`)}
          </Badge>
          <Text>{t("kb.list.chunks", { count: document.chunkCount, formatted: format.number(document.chunkCount) })}</Text>
          <Text>· {t(`chunkMethods.${document.chunkMethod}.label`, { defaultValue: document.chunkMethod })}</Text>
          <MergedFrom documentId={document.id} />
        </HStack>
      </Stack>
      <Button asChild size="sm" variant="outline">
        <RouterLink to={`/document/${document.id}`} target="_blank" data-testid="document-preview">
          <LuExternalLink /> {t("kb.chunk.preview")}
        </RouterLink>
      </Button>
      <Button size="sm" colorPalette="brand" onClick={onAdd} data-testid="chunk-add">
        <LuPlus /> {t("kb.chunk.add")}
      </Button>
    </Flex>
  );
}
