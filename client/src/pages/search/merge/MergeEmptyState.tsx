import { Button, Center, HStack, Icon, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuDatabase, LuMerge, LuSearch } from "react-icons/lu";
import { Link as RouterLink } from "react-router-dom";

/** The merge page without chosen chunks: where to choose them. */
export function MergeEmptyState() {
  const { t } = useTranslation();
  return (
    <Center py="16" px="6" flexDirection="column" gap="3" bg="bg.panel" borderWidth="1px" borderStyle="dashed" rounded="l3" textAlign="center" data-testid="merge-empty">
      <Icon as={LuMerge} boxSize="8" color="fg.subtle" />
      <Text fontWeight="semibold">{t("merge.emptyTitle")}</Text>
      <Text color="fg.muted" maxWidth="lg">
        {t("merge.emptyBody")}
      </Text>
      <HStack gap="2" mt="2" wrap="wrap" justify="center">
        <Button asChild size="sm" colorPalette="brand">
          <RouterLink to="/search" data-testid="merge-to-search">
            <LuSearch /> {t("merge.toSearch")}
          </RouterLink>
        </Button>
        <Button asChild size="sm" variant="outline">
          <RouterLink to="/knowledge" data-testid="merge-to-knowledge">
            <LuDatabase /> {t("merge.toKnowledge")}
          </RouterLink>
        </Button>
      </HStack>
    </Center>
  );
}
