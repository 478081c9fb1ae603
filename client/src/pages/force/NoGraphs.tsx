import { Box, Button, Center, Heading, HStack, Icon, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuLibrary, LuNetwork, LuSettings } from "react-icons/lu";
import { Link as RouterLink } from "react-router-dom";
import { KnowledgeAvatar } from "../../components/KnowledgeAvatar";
import type { GraphKnowledgeBase } from "./ForceExplorer";

/** No knowledge base of the user's has a graph yet: how to build one, with a way to each knowledge base's configuration. */
export function NoGraphs({ knowledgeBases }: { knowledgeBases: GraphKnowledgeBase[] }) {
  const { t } = useTranslation();
  return (
    <Center height="full" px="6" overflowY="auto">
      <Stack align="center" gap="5" maxWidth="xl" textAlign="center" py="10" data-testid="force-empty">
        <Box rounded="full" bg="brand.subtle" color="brand.fg" p="4" borderWidth="1px" borderColor="brand.muted">
          <Icon as={LuNetwork} boxSize="8" />
        </Box>
        <Heading as="h2" size="lg">
          {t("force.empty.title")}
        </Heading>
        <Text color="fg.muted">{t("force.empty.how")}</Text>
        {knowledgeBases.length === 0 ? (
          <Stack align="center" gap="3">
            <Text color="fg.muted">{t("force.empty.noKnowledgeBase")}</Text>
            <Button asChild colorPalette="brand" data-testid="force-empty-knowledge">
              <RouterLink to="/knowledge">
                <LuLibrary /> {t("force.empty.createKnowledgeBase")}
              </RouterLink>
            </Button>
          </Stack>
        ) : (
          <Stack gap="2" width="full" maxWidth="md">
            {knowledgeBases.slice(0, 8).map((kb) => (
              <HStack key={kb.id} borderWidth="1px" rounded="l2" bg="bg.panel" px="3" py="2" gap="3">
                <KnowledgeAvatar name={kb.name} avatar={kb.avatar} size="sm" />
                <Text flex="1" minWidth="0" truncate textAlign="start" fontWeight="medium">
                  {kb.name}
                </Text>
                <Button asChild size="xs" variant="outline" data-testid="force-empty-configure">
                  <RouterLink to={`/knowledge/configuration?id=${kb.id}`}>
                    <LuSettings /> {t("force.empty.configure")}
                  </RouterLink>
                </Button>
              </HStack>
            ))}
          </Stack>
        )}
      </Stack>
    </Center>
  );
}
