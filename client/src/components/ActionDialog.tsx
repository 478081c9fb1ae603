import { Button, CloseButton, Dialog, Portal, Stack, Text } from "@chakra-ui/react";
import { useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

interface ActionDialogProps {
  open: boolean;
  title: string;
  submitLabel: string;
  submitDisabled?: boolean;
  /** The start of the test ids: "file-move" gives file-move-dialog, file-move-submit, file-move-failure. */
  testIdPrefix: string;
  onClose: () => void;
  /** Whether the choice may be sent; false keeps the dialog open (the caller shows why). */
  check?: () => boolean;
  /** Performs the action; the dialog closes when it settles, or shows its refusal. */
  onSubmit: () => Promise<void>;
  describeFailure: (failure: unknown) => string;
  /** The choice to make, above the refusal. */
  children: ReactNode;
}

/** A dialog of one choice and one action on it (move to a folder, link to knowledge bases), busy while it runs. */
export function ActionDialog({ open, title, submitLabel, submitDisabled, testIdPrefix, onClose, check, onSubmit, describeFailure, children }: ActionDialogProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (open) setFailure(null);
  }, [open]);

  async function submit() {
    if (check && !check()) return;
    setBusy(true);
    setFailure(null);
    try {
      await onSubmit();
      onClose();
    } catch (error) {
      setFailure(describeFailure(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(event) => !event.open && !busy && onClose()} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid={`${testIdPrefix}-dialog`}>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                {children}
                {failure && (
                  <Text role="alert" color="fg.error" fontSize="sm" data-testid={`${testIdPrefix}-failure`}>
                    {failure}
                  </Text>
                )}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} disabled={busy}>
                {t("common.cancel")}
              </Button>
              <Button colorPalette="brand" loading={busy} disabled={submitDisabled} onClick={() => void submit()} data-testid={`${testIdPrefix}-submit`}>
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
