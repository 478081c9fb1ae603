import { Alert, Box, Button, Checkbox, CloseButton, Dialog, HStack, Icon, IconButton, Portal, Progress, Stack, Text } from "@chakra-ui/react";
import { useEffect, useRef, useState, type DragEvent } from "react";
import { useTranslation } from "react-i18next";
import { LuCloudUpload, LuFile, LuX } from "react-icons/lu";
import { useFormatters } from "../../../format";
import { describeTransferError, formatBytes, MAX_FILE_BYTES, MAX_FILES_PER_UPLOAD, uploadDocuments } from "../../../documents/documentTransfer";

interface UploadDialogProps {
  open: boolean;
  knowledgeBaseId: string;
  onClose: () => void;
  /** Called with the new documents' ids and whether to parse them at once. */
  onUploaded: (ids: string[], parse: boolean) => Promise<void> | void;
}

type Phase = { state: "choosing" } | { state: "uploading"; fraction: number } | { state: "failed"; reason: string };

/** Files to upload: picked or dropped, checked against §9's limits before anything is sent. */
export function UploadDialog({ open, knowledgeBaseId, onClose, onUploaded }: UploadDialogProps) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const [files, setFiles] = useState<File[]>([]);
  const [parse, setParse] = useState(true);
  const [dragging, setDragging] = useState(false);
  const [phase, setPhase] = useState<Phase>({ state: "choosing" });
  const input = useRef<HTMLInputElement>(null);
  const busy = phase.state === "uploading";

  useEffect(() => {
    if (open) {
      setFiles([]);
      setPhase({ state: "choosing" });
    }
  }, [open]);

  const tooLarge = files.filter((file) => file.size > MAX_FILE_BYTES);
  const tooMany = files.length > MAX_FILES_PER_UPLOAD;
  const blocked = tooLarge.length > 0 || tooMany || files.length === 0;

  function add(list: FileList | null) {
    if (!list) return;
    const known = new Set(files.map((file) => `${file.name}:${file.size}`));
    setFiles([...files, ...[...list].filter((file) => !known.has(`${file.name}:${file.size}`))]);
    if (phase.state === "failed") setPhase({ state: "choosing" });
  }

  function drop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    if (!busy) add(event.dataTransfer.files);
  }

  async function upload() {
    if (blocked) return;
    setPhase({ state: "uploading", fraction: 0 });
    try {
      const documents = await uploadDocuments(knowledgeBaseId, files, (fraction) => setPhase({ state: "uploading", fraction }));
      await onUploaded(
        documents.map((document) => document.id),
        parse,
      );
      onClose();
    } catch (error) {
      setPhase({ state: "failed", reason: describeTransferError(error, (key) => t(key), (key) => i18n.exists(key), "errors.uploadFailed") });
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(event) => !event.open && !busy && onClose()} placement="center" size="lg">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="upload-dialog">
            <Dialog.Header>
              <Dialog.Title>{t("kb.upload.title")}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
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
                  <button type="button" disabled={busy}>
                  <Stack align="center" gap="2">
                    <Icon as={LuCloudUpload} boxSize="8" color="brand.fg" />
                    <Text fontWeight="medium">{t("kb.upload.drop")}</Text>
                    <Text fontSize="sm" color="fg.muted">
                      {t("kb.upload.limits", { files: MAX_FILES_PER_UPLOAD, size: "10 MB" })}
                    </Text>
                  </Stack>
                  </button>
                </Box>
                <input ref={input} type="file" multiple hidden onChange={(event) => (add(event.target.files), (event.target.value = ""))} data-testid="upload-input" />

                {files.length > 0 && (
                  <Stack gap="1" maxHeight="56" overflowY="auto" borderWidth="1px" rounded="l2" p="2" data-testid="upload-files">
                    {files.map((file) => {
                      const large = file.size > MAX_FILE_BYTES;
                      return (
                        <HStack key={`${file.name}:${file.size}`} gap="3" px="2" py="1" rounded="l1" bg={large ? "bg.error" : undefined}>
                          <Icon as={LuFile} color="fg.subtle" />
                          <Text flex="1" fontSize="sm" truncate title={file.name}>
                            {file.name}
                          </Text>
                          <Text fontSize="xs" color={large ? "fg.error" : "fg.muted"} flexShrink={0}>
                            {formatBytes(file.size, format.number)}
                          </Text>
                          <IconButton size="2xs" variant="ghost" aria-label={t("kb.upload.remove", { name: file.name })} disabled={busy} onClick={() => setFiles(files.filter((other) => other !== file))}>
                            <LuX />
                          </IconButton>
                        </HStack>
                      );
                    })}
                  </Stack>
                )}

                {(tooMany || tooLarge.length > 0) && (
                  <Alert.Root status="error" variant="subtle" data-testid="upload-limit-error">
                    <Alert.Indicator />
                    <Alert.Content>
                      <Alert.Title>{t("httpStatus.413")}</Alert.Title>
                      <Alert.Description>
                        {tooMany
                          ? t("kb.upload.tooMany", { count: files.length, max: MAX_FILES_PER_UPLOAD })
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

                <Checkbox.Root checked={parse} onCheckedChange={(details) => setParse(details.checked === true)} colorPalette="brand" disabled={busy}>
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label>{t("kb.upload.parseOnUpload")}</Checkbox.Label>
                </Checkbox.Root>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Text fontSize="sm" color="fg.muted" me="auto">
                {files.length > 0 && t("kb.upload.selected", { count: files.length })}
              </Text>
              <Button variant="outline" onClick={onClose} disabled={busy}>
                {t("common.cancel")}
              </Button>
              <Button colorPalette="brand" onClick={() => void upload()} loading={busy} disabled={blocked} data-testid="upload-submit">
                {t("kb.upload.submit")}
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
