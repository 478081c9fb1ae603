import { Box, Button, Center, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuBot, LuPlus } from "react-icons/lu";

/** The chat page of a user without any assistant: what an assistant is, and a button to create one. */
export function EmptyAssistants({ onCreate }: { onCreate: () => void }) {
  const { t } = useTranslation();
  return (
    <Center py="16" px="6" flexDirection="column" gap="3" textAlign="center" bg="bg.panel" borderWidth="1px" borderStyle="dashed" rounded="l3" data-testid="assistant-empty">
      <Box rounded="full" bg="brand.subtle" color="brand.fg" p="4">
        <LuBot size="28" />
      </Box>
      <Text fontWeight="semibold">{t("chat.assistants.emptyTitle")}</Text>
      <Text fontSize="sm" color="fg.muted" maxWidth="md">
        {t("chat.assistants.emptyBody")}
      </Text>
      <Button colorPalette="brand" size="sm" onClick={onCreate}>
        <LuPlus /> {t("chat.assistants.create")}
      </Button>
    </Center>
  );
}
