import { Box, Button, Center, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuFileText, LuUpload } from "react-icons/lu";

/** No document to show: none matches the filters, or the knowledge base has none yet (then an upload button). */
export function DocumentsEmpty({ filtered, onUpload }: { filtered: boolean; onUpload: () => void }) {
  const { t } = useTranslation();
  return (
    <Center py="16" px="6" flexDirection="column" gap="3" textAlign="center" data-testid="documents-empty">
      <Box rounded="full" bg="brand.subtle" color="brand.fg" p="4">
        <LuFileText size="26" />
      </Box>
      <Text fontWeight="semibold">{filtered ? t("kb.dataset.noMatch") : t("kb.dataset.emptyTitle")}</Text>
      {!filtered && (
        <>
          <Text fontSize="sm" color="fg.muted" maxWidth="md">
            {t("kb.dataset.emptyBody")}
          </Text>
          <Button colorPalette="brand" size="sm" onClick={onUpload}>
            <LuUpload /> {t("kb.dataset.upload")}
          </Button>
        </>
      )}
    </Center>
  );
}
