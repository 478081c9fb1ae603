import { Alert, Box, Button, CloseButton, Dialog, HStack, Icon, IconButton, Portal, Progress, Stack, Text } from "@chakra-ui/react";
import { useRef, useState, type DragEvent } from "react";
import { useTranslation } from "react-i18next";
import { LuCloudUpload, LuFile, LuFolderUp, LuX } from "react-icons/lu";
import { formatBytes, MAX_FILE_BYTES, MAX_FILES_PER_UPLOAD } from "../../documents/documentTransfer";
import { fileKey } from "../../documents/uploadSelection";
import { useFormatters } from "../../format";
import { uploadPathOf } from "./folderUpload";
import type { FileUpload } from "./useFileUpload";

/** A browser attribute React's types do not know: the picker chooses a folder and gives every file its path in it. */
const FOLDER_PICKER = { webkitdirectory: "" } as Record<string, string>;

interface FileUploadDialogProps {
  open: boolean;
  /** The name of the destination, for the title. */
  folderName: string;
  upload: FileUpload;
  onClose: () => void;
}

/** Files or a whole folder to upload into the open folder, checked against §9's limits before anything is sent. */
export function FileUploadDialog({ open, folderName, upload, onClose }: FileUploadDialogProps) {
  const { t } = useTranslation();
  const { busy, files } = upload;
  return (
    <Dialog.Root open={open} onOpenChange={(event) => !event.open && !busy && onClose()} placement="center" size="lg">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="file-upload-dialog">
            <Dialog.Header>
              <Dialog.Title>{t("file.upload.title", { folder: folderName })}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                <UploadPickers upload={upload} />
                <ChosenFiles upload={upload} />
                <UploadProblems upload={upload} />
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Text fontSize="sm" color="fg.muted" me="auto" data-testid="file-upload-summary">
                {files.length > 0 &&
                  [t("file.upload.files", { count: files.length }), upload.folders.length > 0 ? t("file.upload.newFolders", { count: upload.folders.length }) : null].filter(Boolean).join(" · ")}
              </Text>
              <Button variant="outline" onClick={onClose} disabled={busy} data-testid="file-upload-cancel">
                {t("common.cancel")}
              </Button>
              <Button colorPalette="brand" onClick={() => void upload.upload()} loading={busy} disabled={upload.blocked} data-testid="file-upload-submit">
                {t("file.upload.submit")}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild disabled={busy}>
              <CloseButton size="sm" aria-label={t("common.close")} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** A drop area with two ways to pick: files, or one folder with everything in it. */
function UploadPickers({ upload }: { upload: FileUpload }) {
  const { t } = useTranslation();
  const [dragging, setDragging] = useState(false);
  const filePicker = useRef<HTMLInputElement>(null);
  const folderPicker = useRef<HTMLInputElement>(null);

  function drop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    if (!upload.busy) upload.add(event.dataTransfer.files);
  }

  return (
    <Box
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
      py="8"
      px="6"
      textAlign="center"
      transition="background 0.15s, border-color 0.15s"
      data-testid="file-upload-dropzone"
    >
      <Stack align="center" gap="2">
        <Icon as={LuCloudUpload} boxSize="8" color="brand.fg" />
        <Text fontWeight="medium">{t("file.upload.drop")}</Text>
        <Text fontSize="sm" color="fg.muted">
          {t("file.upload.limits", { files: MAX_FILES_PER_UPLOAD, size: "10 MB" })}
        </Text>
        <HStack gap="2" mt="2">
          <Button size="sm" variant="outline" disabled={upload.busy} onClick={() => filePicker.current?.click()} data-testid="file-upload-pick-files">
            <LuFile /> {t("file.upload.chooseFiles")}
          </Button>
          <Button size="sm" variant="outline" disabled={upload.busy} onClick={() => folderPicker.current?.click()} data-testid="file-upload-pick-folder">
            <LuFolderUp /> {t("file.upload.chooseFolder")}
          </Button>
        </HStack>
      </Stack>
      <input ref={filePicker} type="file" multiple hidden onChange={(event) => (upload.add(event.target.files), (event.target.value = ""))} data-testid="file-upload-input" />
      <input ref={folderPicker} type="file" multiple hidden {...FOLDER_PICKER} onChange={(event) => (upload.add(event.target.files), (event.target.value = ""))} data-testid="file-upload-folder-input" />
    </Box>
  );
}

/** The chosen files by their path in the upload, with sizes (a file over the limit in red), each removable. */
function ChosenFiles({ upload }: { upload: FileUpload }) {
  const { t } = useTranslation();
  const format = useFormatters();
  if (upload.files.length === 0) return null;
  return (
    <Stack gap="1" maxHeight="56" overflowY="auto" borderWidth="1px" rounded="l2" p="2" data-testid="file-upload-files">
      {upload.files.map((file) => {
        const large = file.size > MAX_FILE_BYTES;
        const path = uploadPathOf(file);
        return (
          <HStack key={fileKey(file)} gap="3" px="2" py="1" rounded="l1" bg={large ? "bg.error" : undefined} data-testid="file-upload-file">
            <Icon as={LuFile} color="fg.subtle" />
            <Text flex="1" fontSize="sm" truncate title={path}>
              {path}
            </Text>
            <Text fontSize="xs" color={large ? "fg.error" : "fg.muted"} flexShrink={0}>
              {formatBytes(file.size, format.number)}
            </Text>
            <IconButton size="2xs" variant="ghost" aria-label={t("file.upload.remove", { name: path })} disabled={upload.busy} onClick={() => upload.remove(file)} data-testid="file-upload-remove">
              <LuX />
            </IconButton>
          </HStack>
        );
      })}
    </Stack>
  );
}

/** Why the upload is blocked (§8's 413 text with §9's limits), how far it got, or the server's refusal. */
function UploadProblems({ upload }: { upload: FileUpload }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const { phase, tooMany, tooLarge } = upload;
  return (
    <>
      {(tooMany || tooLarge.length > 0) && (
        <Alert.Root status="error" variant="subtle" data-testid="file-upload-limit">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t("httpStatus.413")}</Alert.Title>
            <Alert.Description>
              <Stack gap="1">
                {tooMany && <Text>{t("file.upload.tooMany", { count: upload.files.length, max: MAX_FILES_PER_UPLOAD })}</Text>}
                {tooLarge.length > 0 && <Text>{t("file.upload.tooLarge", { names: tooLarge.map(uploadPathOf).join(", "), size: "10 MB" })}</Text>}
              </Stack>
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {phase.state === "uploading" && (
        <Stack gap="1.5" data-testid="file-upload-progress">
          <HStack justify="space-between" fontSize="sm">
            <Text>{t("file.upload.uploading")}</Text>
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
        <Alert.Root status="error" variant="subtle" data-testid="file-upload-failed">
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
