import { Box, Text } from "@chakra-ui/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ActionDialog } from "../../components/ActionDialog";
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
  const open = files !== null;

  useEffect(() => {
    if (open) setDestination(currentFolderId);
  }, [open, currentFolderId]);

  const moving = new Set((files ?? []).filter(isFolder).map((file) => file.id));
  return (
    <ActionDialog
      open={open}
      title={files?.length === 1 ? t("file.move.titleOne", { name: files[0].name }) : t("file.move.title", { count: files?.length ?? 0 })}
      submitLabel={t("file.move.submit")}
      submitDisabled={destination === currentFolderId}
      testIdPrefix="file-move"
      onClose={onClose}
      onSubmit={async () => {
        if (files) await onMove(files, destination);
      }}
      describeFailure={describeFailure}
    >
      <Text fontSize="sm" color="fg.muted">
        {t("file.move.choose")}
      </Text>
      <Box borderWidth="1px" rounded="l2" p="2" maxHeight="72" overflowY="auto">
        {open && <FolderTree selectedId={destination} onSelect={setDestination} openPath={openPath} excludedIds={moving} readOnlyChoosable={false} testId="file-move-tree" />}
      </Box>
    </ActionDialog>
  );
}
