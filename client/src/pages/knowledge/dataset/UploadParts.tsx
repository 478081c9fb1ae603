import { Alert, Box, HStack, Icon, IconButton, Progress, Stack, Text } from "@chakra-ui/react";
import { useRef, useState, type DragEvent } from "react";
import { useTranslation } from "react-i18next";
import { LuCloudUpload, LuFile, LuX } from "react-icons/lu";
import { formatBytes, MAX_FILE_BYTES, MAX_FILES_PER_UPLOAD } from "../../../documents/documentTransfer";
import { useFormatters } from "../../../format";
import { fileKey } from "./uploadSelection";
import type { Upload } from "./useUpload";

/** Click to pick files, or drop them here. */
export function DropZone({ upload }: { upload: Upload }) {
  const { t } = useTranslation();
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  function drop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    if (!upload.busy) upload.add(event.dataTransfer.files);
  }

  return (
    <>
      <Box
        asChild
        onClick={() => input.current?.click()}
        onDragOver={(event: DragEvent) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
        borderWidth="2px"
        borderStyle="dashed"
        borderColor={dragging ? "brand.solid" : "border.emphasized"}
        bg={dragging ? "brand.subtle" : "bg.subtle"}
        rounded="l3"
        py="10"
        px="6"
        textAlign="center"
        cursor="pointer"
        transition="background 0.15s, border-color 0.15s"
        _hover={{ borderColor: "brand.solid" }}
        data-testid="upload-dropzone"
      >
        <button type="button" disabled={upload.busy}>
          <Stack align="center" gap="2">
            <Icon as={LuCloudUpload} boxSize="8" color="brand.fg" />
            <Text fontWeight="medium">{t("kb.upload.drop")}</Text>
            <Text fontSize="sm" color="fg.muted">
              {t("kb.upload.limits", { files: MAX_FILES_PER_UPLOAD, size: "10 MB" })}
            </Text>
          </Stack>
        </button>
      </Box>
      <input ref={input} type="file" multiple hidden onChange={(event) => (upload.add(event.target.files), (event.target.value = ""))} data-testid="upload-input" />
    </>
  );
}

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

/** Why the upload is blocked, how far it got, or why it failed. */
export function UploadStatus({ upload }: { upload: Upload }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const { phase, tooMany, tooLarge } = upload;
  return (
    <>
      {(tooMany || tooLarge.length > 0) && (
        <Alert.Root status="error" variant="subtle" data-testid="upload-limit-error">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t("httpStatus.413")}</Alert.Title>
            <Alert.Description>
              {tooMany
                ? t("kb.upload.tooMany", { count: upload.files.length, max: MAX_FILES_PER_UPLOAD })
                : t("kb.upload.tooLarge", { names: tooLarge.map((file) => file.name).join(", "), size: "10 MB" })}
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}

      {phase.state === "uploading" && (
        <Stack gap="1.5" data-testid="upload-progress">
          <HStack justify="space-between" fontSize="sm">
            <Text>{t("kb.upload.uploading")}</Text>
            <Text color="fg.muted">{format.number(Math.round(phase.fraction * 100))}%</Text>
          </HStack>
          <Progress.Root value={Math.round(phase.fraction * 100)} size="sm" colorPalette="brand">
            <Progress.Track rounded="full">
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        </Stack>
      )}
      {phase.state === "failed" && (
        <Alert.Root status="error" variant="subtle" data-testid="upload-failed">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t("errors.uploadFailed")}</Alert.Title>
            <Alert.Description>{phase.reason}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
    </>
  );
}
