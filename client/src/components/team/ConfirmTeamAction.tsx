import { Button, Dialog, Portal, Text } from "@chakra-ui/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";

export interface PendingConfirmation {
  /** The question, in the user's language. */
  question: string;
  /** What the confirm button says. */
  action: string;
  /** Runs the action; the dialog closes once it settles. */
  run: () => Promise<unknown>;
}

/** Asks before a team action that cannot be undone by the one who takes it (leaving, removing, handing ownership on). */
export function ConfirmTeamAction({ pending, onClose }: { pending: PendingConfirmation | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);

  async function confirm() {
    if (!pending) return;
    setBusy(true);
    try {
      await pending.run();
      onClose();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog.Root open={pending !== null} onOpenChange={(event) => !event.open && !busy && onClose()} role="alertdialog" placement="center" size="sm">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="team-confirm-dialog">
            <Dialog.Header>
              <Dialog.Title>{t("team.confirm")}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text>{pending?.question}</Text>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} disabled={busy}>
                {t("common.cancel")}
              </Button>
              <Button colorPalette="red" loading={busy} onClick={() => void confirm()} data-testid="team-confirm">
                {pending?.action}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
