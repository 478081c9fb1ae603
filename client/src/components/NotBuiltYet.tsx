import { Badge, Box, Heading, Icon, Stack, Text } from "@chakra-ui/react";
import type { IconType } from "react-icons";
import { useTranslation } from "react-i18next";
import { LuConstruction } from "react-icons/lu";

interface NotBuiltYetProps {
  /** The key under `pages.` in the message files: its title and what the screen will do. */
  page: string;
  icon: IconType;
  /** Tighter spacing inside a settings panel or a tab. */
  compact?: boolean;
}

/** The honest placeholder of a screen that a later release builds: what it will do, and no made-up data. */
export function NotBuiltYet({ page, icon, compact = false }: NotBuiltYetProps) {
  const { t } = useTranslation();
  return (
    <Box
      data-testid="not-built-yet"
      borderWidth="1px"
      borderStyle="dashed"
      borderColor="border.emphasized"
      rounded="l3"
      bg="bg.panel"
      px={{ base: "6", md: "10" }}
      py={compact ? "10" : { base: "12", md: "16" }}
      textAlign="center"
    >
      <Stack align="center" gap="5" maxWidth="xl" mx="auto">
        <Box position="relative">
          <Box rounded="full" bg="brand.subtle" color="brand.fg" p="4" borderWidth="1px" borderColor="brand.muted">
            <Icon as={icon} boxSize="8" />
          </Box>
          <Box position="absolute" right="-2" bottom="-1" rounded="full" bg="bg.panel" p="1" color="orange.fg">
            <Icon as={LuConstruction} boxSize="4" />
          </Box>
        </Box>
        <Stack gap="2" align="center">
          <Badge colorPalette="orange" variant="subtle" size="sm">
            {t("notBuilt.badge")}
          </Badge>
          <Heading as="h2" size="xl">
            {t(`pages.${page}.title`)}
          </Heading>
        </Stack>
        <Text color="fg.muted">{t(`pages.${page}.description`)}</Text>
        <Text color="fg.subtle" fontSize="sm">
          {t("notBuilt.body")}
        </Text>
      </Stack>
    </Box>
  );
}
