import { Box, Button, Center, HStack, List, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuFolderOpen, LuFolderPlus, LuSearchX, LuUpload } from "react-icons/lu";

interface FilesEmptyProps {
  /** "start": the user has no file at all; "folder": this folder is empty; "noMatch": the search found nothing. */
  reason: "start" | "folder" | "noMatch";
  /** False inside a read-only folder, where nothing can be added. */
  canAdd: boolean;
  onUpload: () => void;
  onNewFolder: () => void;
}

/** What stands in for an empty table: on a first visit, what the file manager is for and the two ways to begin. */
export function FilesEmpty({ reason, canAdd, onUpload, onNewFolder }: FilesEmptyProps) {
  const { t } = useTranslation();
  return (
    <Center py="14" px="6" flexDirection="column" gap="3" textAlign="center" data-testid="files-empty" data-reason={reason}>
      <Box rounded="full" bg="brand.subtle" color="brand.fg" p="4">
        {reason === "noMatch" ? <LuSearchX size="26" /> : <LuFolderOpen size="26" />}
      </Box>
      <Text fontWeight="semibold" fontSize={reason === "start" ? "lg" : "md"}>
        {t(`file.empty.${reason}Title`)}
      </Text>
      {reason === "start" && (
        <>
          <Text fontSize="sm" color="fg.muted" maxWidth="lg">
            {t("file.empty.startBody")}
          </Text>
          <List.Root fontSize="sm" color="fg.muted" textAlign="start" gap="1" ps="5">
            <List.Item>{t("file.empty.pointUpload")}</List.Item>
            <List.Item>{t("file.empty.pointLink")}</List.Item>
            <List.Item>{t("file.empty.pointPreview")}</List.Item>
          </List.Root>
        </>
      )}
      {reason !== "noMatch" && canAdd && (
        <HStack gap="2" mt="2">
          <Button colorPalette="brand" size="sm" onClick={onUpload} data-testid="files-empty-upload">
            <LuUpload /> {t("file.actions.upload")}
          </Button>
          <Button variant="outline" size="sm" onClick={onNewFolder} data-testid="files-empty-new-folder">
            <LuFolderPlus /> {t("file.actions.newFolder")}
          </Button>
        </HStack>
      )}
    </Center>
  );
}
