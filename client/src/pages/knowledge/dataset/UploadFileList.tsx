import { HStack, Icon, IconButton, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuFile, LuX } from "react-icons/lu";
import { formatBytes, MAX_FILE_BYTES } from "../../../documents/documentTransfer";
import { useFormatters } from "../../../format";
import { fileKey } from "../../../documents/uploadSelection";
import type { Upload } from "./useUpload";

/** The chosen files with their sizes (a file over the limit in red), each removable. */
export function UploadFileList({ upload }: { upload: Upload }) {
  const { t } = useTranslation();
  const format = useFormatters();
  if (upload.files.length === 0) return null;
  return (
    <Stack gap="1" maxHeight="56" overflowY="auto" borderWidth="1px" rounded="l2" p="2" data-testid="upload-files">
      {upload.files.map((file) => {
        const large = file.size > MAX_FILE_BYTES;
        return (
          <HStack key={fileKey(file)} gap="3" px="2" py="1" rounded="l1" bg={large ? "bg.error" : undefined}>
            <Icon as={LuFile} color="fg.subtle" />
            <Text flex="1" fontSize="sm" truncate title={file.name}>
              {file.name}
            </Text>
            <Text fontSize="xs" color={large ? "fg.error" : "fg.muted"} flexShrink={0}>
              {formatBytes(file.size, format.number)}
            </Text>
            <IconButton size="2xs" variant="ghost" aria-label={t("kb.upload.remove", { name: file.name })} disabled={upload.busy} onClick={() => upload.remove(file)}>
              <LuX />
            </IconButton>
          </HStack>
        );
      })}
    </Stack>
  );
}
