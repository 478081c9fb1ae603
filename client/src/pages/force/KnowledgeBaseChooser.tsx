import { Box, Checkbox, HStack, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { KnowledgeAvatar } from "../../components/KnowledgeAvatar";
import type { GraphKnowledgeBase } from "./ForceExplorer";

/** The knowledge bases with a graph, ticked when shown; several are drawn side by side. */
export function KnowledgeBaseChooser({ knowledgeBases, chosen, onToggle }: { knowledgeBases: GraphKnowledgeBase[]; chosen: string[]; onToggle: (id: string) => void }) {
  const { t, i18n } = useTranslation();
  const format = new Intl.NumberFormat(i18n.language);
  return (
    <Box borderWidth="1px" rounded="l2" maxHeight="64" overflowY="auto" data-testid="force-knowledge-bases">
      {knowledgeBases.map((kb) => (
        <Checkbox.Root
          key={kb.id}
          checked={chosen.includes(kb.id)}
          onCheckedChange={() => onToggle(kb.id)}
          colorPalette="brand"
          display="flex"
          width="full"
          px="2.5"
          py="2"
          gap="2.5"
          borderBottomWidth="1px"
          borderColor="border.muted"
          _last={{ borderBottomWidth: 0 }}
          _hover={{ bg: "bg.subtle" }}
          cursor="pointer"
          data-testid="force-knowledge-base"
          data-id={kb.id}
        >
          <Checkbox.HiddenInput />
          <Checkbox.Control />
          <Checkbox.Label flex="1" minWidth="0">
            <HStack gap="2" minWidth="0">
              <KnowledgeAvatar name={kb.name} avatar={kb.avatar} size="sm" />
              <Stack gap="0" minWidth="0">
                <Text truncate fontWeight="medium" fontSize="sm">
                  {kb.name}
                </Text>
                <Text fontSize="xs" color="fg.muted">
                  {t("force.graphSize", { entities: format.format(kb.entityCount), relations: format.format(kb.relationCount) })}
                </Text>
              </Stack>
            </HStack>
          </Checkbox.Label>
        </Checkbox.Root>
      ))}
    </Box>
  );
}
