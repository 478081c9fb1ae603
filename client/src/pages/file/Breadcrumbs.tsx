import { Button, HStack, Icon, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuChevronRight, LuHouse } from "react-icons/lu";

export interface FolderStep {
  id: string;
  name: string;
}

/** The way from the root to the open folder; each step but the last opens its folder. */
export function Breadcrumbs({ path, onOpen }: { path: FolderStep[]; onOpen: (folderId: string) => void }) {
  const { t } = useTranslation();
  return (
    <HStack as="nav" aria-label={t("file.breadcrumbs")} gap="0.5" wrap="wrap" minWidth="0" flex="1" data-testid="file-breadcrumbs">
      {path.map((step, index) => {
        const last = index === path.length - 1;
        // The root's name is "/": it is shown as "Files", with a house.
        const label = index === 0 ? t("file.root") : step.name;
        return (
          <HStack key={step.id} gap="0.5" minWidth="0">
            {index > 0 && <Icon as={LuChevronRight} boxSize="3.5" color="fg.subtle" flexShrink={0} />}
            {last ? (
              <HStack gap="1.5" px="2" py="1" fontWeight="semibold" minWidth="0" aria-current="page" data-testid="file-breadcrumb-current">
                {index === 0 && <LuHouse />}
                <Text truncate maxWidth="48" title={label}>
                  {label}
                </Text>
              </HStack>
            ) : (
              <Button size="sm" variant="ghost" px="2" color="fg.muted" fontWeight="normal" onClick={() => onOpen(step.id)} data-testid="file-breadcrumb">
                {index === 0 && <LuHouse />}
                <Text truncate maxWidth="40" title={label}>
                  {label}
                </Text>
              </Button>
            )}
          </HStack>
        );
      })}
    </HStack>
  );
}
