import { Flex, Heading, Stack, Text } from "@chakra-ui/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** The title of a knowledge base's section, with its one-line summary and the section's actions. */
export function SectionHeading({ page, actions }: { page: string; actions?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Flex gap="4" align={{ base: "stretch", md: "flex-end" }} justify="space-between" direction={{ base: "column", md: "row" }} mb="6">
      <Stack gap="1">
        <Heading as="h1" size="xl" letterSpacing="-0.01em">
          {t(`pages.${page}.title`)}
        </Heading>
        <Text color="fg.muted">{t(`pages.${page}.summary`)}</Text>
      </Stack>
      {actions}
    </Flex>
  );
}
