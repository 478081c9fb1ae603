import { HStack, Icon, IconButton, Stack, Text } from "@chakra-ui/react";
import { LuFile, LuX } from "react-icons/lu";
import { formatBytes, MAX_FILE_BYTES } from "../../documents/documentTransfer";
import { fileKey } from "../../documents/uploadSelection";
import { useFormatters } from "../../format";

interface UploadFileListProps {
  files: File[];
  busy: boolean;
  onRemove: (file: File) => void;
  /** How a file is named in the list (its name, or its path in a picked folder). */
  nameOf: (file: File) => string;
  removeLabel: (name: string) => string;
  /** The start of every test id: "upload" gives upload-files, upload-file, upload-remove. */
  testIdPrefix: string;
}

/** The chosen files with their sizes (a file over the limit in red), each removable. */
export function UploadFileList({ files, busy, onRemove, nameOf, removeLabel, testIdPrefix }: UploadFileListProps) {
  const format = useFormatters();
  if (files.length === 0) return null;
  return (
    <Stack gap="1" maxHeight="56" overflowY="auto" borderWidth="1px" rounded="l2" p="2" data-testid={`${testIdPrefix}-files`}>
      {files.map((file) => {
        const large = file.size > MAX_FILE_BYTES;
        const name = nameOf(file);
        return (
          <HStack key={fileKey(file)} gap="3" px="2" py="1" rounded="l1" bg={large ? "bg.error" : undefined} data-testid={`${testIdPrefix}-file`}>
            <Icon as={LuFile} color="fg.subtle" />
            <Text flex="1" fontSize="sm" truncate title={name}>
              {name}
            </Text>
            <Text fontSize="xs" color={large ? "fg.error" : "fg.muted"} flexShrink={0}>
              {formatBytes(file.size, format.number)}
            </Text>
            <IconButton size="2xs" variant="ghost" aria-label={removeLabel(name)} disabled={busy} onClick={() => onRemove(file)} data-testid={`${testIdPrefix}-remove`}>
              <LuX />
            </IconButton>
          </HStack>
        );
      })}
    </Stack>
  );
}
