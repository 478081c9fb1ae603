import { Box, Button, Center, HStack, Icon, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuEye, LuFolderOpen, LuFolderPlus, LuLink, LuSearchX, LuUpload } from "react-icons/lu";

interface FilesEmptyProps {
  /** "start": the user has no file at all; "folder": this folder is empty; "noMatch": the search found nothing. */
  reason: "start" | "folder" | "noMatch";
  /** False inside a read-only folder, where nothing can be added. */
  canAdd: boolean;
  onUpload: () => void;
  onNewFolder: () => void;
}

const POINTS = [
  [LuUpload, "file.empty.pointUpload"],
  [LuLink, "file.empty.pointLink"],
  [LuEye, "file.empty.pointPreview"],
] as const;

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
          <Stack gap="2" maxWidth="lg" fontSize="sm" color="fg.muted" textAlign="start" mt="1">
            {POINTS.map(([icon, key]) => (
              <HStack key={key} gap="2.5" align="flex-start">
                <Icon as={icon} color="brand.fg" boxSize="4" mt="0.5" flexShrink={0} />
                <Text>{t(key)}</Text>
              </HStack>
            ))}
          </Stack>
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
