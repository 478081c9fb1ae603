import { useQuery } from "@apollo/client/react";
import { Button, CloseButton, Dialog, HStack, Icon, Portal, Text } from "@chakra-ui/react";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LuTriangleAlert } from "react-icons/lu";
import { RecycleBinDaysDocument, type WorkKind } from "../graphql/gql/graphql";

interface ConfirmDeleteDialogProps {
  open: boolean;
  onClose: () => void;
  /** Runs the deletion; the dialog stays open with a busy button until it settles. */
  onConfirm: () => Promise<void> | void;
  /** What is being deleted, shown under the question (a name or a hint). */
  subject?: string;
  /** What else goes with it, shown under the subject (e.g. the knowledge-base documents of a deleted file). */
  children?: ReactNode;
  /** The kind of a deletion that moves the item into the recycle bin: the dialog says for how long it can be restored. */
  binKind?: WorkKind;
}

/** The one confirmation every deletion passes through (§2: "are you sure delete this item"). */
export function ConfirmDeleteDialog({ open, onClose, onConfirm, subject, children, binKind }: ConfirmDeleteDialogProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  // The retention is the server's (RECYCLE_BIN_DAYS), read once per page and kept in the cache.
  const { data: bin } = useQuery(RecycleBinDaysDocument, { skip: !binKind || !open });
  const days = bin?.recycleBinDays;

  async function confirm() {
    setBusy(true);
    try {
      await onConfirm();
      onClose();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(event) => !event.open && !busy && onClose()} role="alertdialog" placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="confirm-delete-dialog">
            <Dialog.Header>
              <HStack gap="3">
                <Icon as={LuTriangleAlert} color="red.solid" boxSize="5" />
                <Dialog.Title>{t("common.deleteTitle")}</Dialog.Title>
              </HStack>
            </Dialog.Header>
            <Dialog.Body>
              <Text>{t("common.deleteConfirm")}</Text>
              {subject && (
                <Text mt="2" color="fg.muted" fontFamily="mono" fontSize="sm">
                  {subject}
                </Text>
              )}
              {children}
              {binKind && days !== undefined && (
                <Text mt="3" fontSize="sm" color="fg.muted" data-testid="confirm-delete-bin-note">
                  {days > 0 ? t("bin.confirm.toBin", { count: days }) : t("bin.confirm.forGood")}
                </Text>
              )}
            </Dialog.Body>
            <Dialog.Footer>
              <Dialog.ActionTrigger asChild>
                <Button variant="outline" disabled={busy}>
                  {t("common.cancel")}
                </Button>
              </Dialog.ActionTrigger>
              <Button colorPalette="red" loading={busy} onClick={() => void confirm()}>
                {t("common.delete")}
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
