import { Box, Button, CloseButton, Dialog, Portal, Stack, Text } from "@chakra-ui/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { FileRowFragment } from "../../graphql/gql/graphql";
import { isFolder } from "./fileActions";
import { FolderTree } from "./FolderTree";

interface MoveDialogProps {
  /** The rows to move; null when closed. */
  files: FileRowFragment[] | null;
  /** Where the rows are now, and the way to it, so that the tree opens there. */
  currentFolderId: string;
  openPath: string[];
  onClose: () => void;
  /** Moves the rows; a refusal is thrown with the server's words. */
  onMove: (files: FileRowFragment[], destinationId: string) => Promise<void>;
  describeFailure: (failure: unknown) => string;
}

/** One or several rows to move, with the destination chosen in the folder tree. */
export function MoveDialog({ files, currentFolderId, openPath, onClose, onMove, describeFailure }: MoveDialogProps) {
  const { t } = useTranslation();
  const [destination, setDestination] = useState(currentFolderId);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const open = files !== null;

  useEffect(() => {
    if (open) {
      setDestination(currentFolderId);
      setFailure(null);
    }
  }, [open, currentFolderId]);

  async function move() {
    if (!files) return;
    setBusy(true);
    setFailure(null);
    try {
      await onMove(files, destination);
      onClose();
    } catch (error) {
      setFailure(describeFailure(error));
    } finally {
      setBusy(false);
    }
  }

  const moving = new Set((files ?? []).filter(isFolder).map((file) => file.id));
  return (
    <Dialog.Root open={open} onOpenChange={(event) => !event.open && !busy && onClose()} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="file-move-dialog">
            <Dialog.Header>
              <Dialog.Title>{files?.length === 1 ? t("file.move.titleOne", { name: files[0].name }) : t("file.move.title", { count: files?.length ?? 0 })}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                <Text fontSize="sm" color="fg.muted">
                  {t("file.move.choose")}
                </Text>
                <Box borderWidth="1px" rounded="l2" p="2" maxHeight="72" overflowY="auto">
                  {open && <FolderTree selectedId={destination} onSelect={setDestination} openPath={openPath} excludedIds={moving} readOnlyChoosable={false} testId="file-move-tree" />}
                </Box>
                {failure && (
                  <Text role="alert" color="fg.error" fontSize="sm" data-testid="file-move-failure">
                    {failure}
                  </Text>
                )}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} disabled={busy}>
                {t("common.cancel")}
              </Button>
              <Button colorPalette="brand" loading={busy} disabled={destination === currentFolderId} onClick={() => void move()} data-testid="file-move-submit">
                {t("file.move.submit")}
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
