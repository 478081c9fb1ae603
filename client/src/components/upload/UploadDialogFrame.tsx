import { Button, CloseButton, Dialog, Portal, Stack, Text } from "@chakra-ui/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { UploadChoice } from "./useUploadChoice";

interface UploadDialogFrameProps {
  open: boolean;
  title: string;
  upload: UploadChoice;
  /** What the files chosen make, next to the buttons. */
  summary: string;
  submitLabel: string;
  /** The start of the test ids: "upload" gives upload-dialog, upload-summary, upload-cancel, upload-submit. */
  testIdPrefix: string;
  onClose: () => void;
  /** The pickers, the files chosen and the upload's state. */
  children: ReactNode;
}

/** The dialog around an upload: it cannot be closed while the files are sent, nor sent while §9's limits block it. */
export function UploadDialogFrame({ open, title, upload, summary, submitLabel, testIdPrefix, onClose, children }: UploadDialogFrameProps) {
  const { t } = useTranslation();
  const { busy } = upload;
  return (
    <Dialog.Root open={open} onOpenChange={(event) => !event.open && !busy && onClose()} placement="center" size="lg">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid={`${testIdPrefix}-dialog`}>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">{children}</Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Text fontSize="sm" color="fg.muted" me="auto" data-testid={`${testIdPrefix}-summary`}>
                {summary}
              </Text>
              <Button variant="outline" onClick={onClose} disabled={busy} data-testid={`${testIdPrefix}-cancel`}>
                {t("common.cancel")}
              </Button>
              <Button colorPalette="brand" onClick={() => void upload.upload()} loading={busy} disabled={upload.blocked} data-testid={`${testIdPrefix}-submit`}>
                {submitLabel}
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
