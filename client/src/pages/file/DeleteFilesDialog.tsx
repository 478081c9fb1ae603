import { Box, Spinner, Stack, Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useTranslation } from "react-i18next";
import { ConfirmDeleteDialog } from "../../components/ConfirmDeleteDialog";
import { FileDeletionImpactDocument, type FileRowFragment } from "../../graphql/gql/graphql";
import { isFolder } from "./fileActions";

interface DeleteFilesDialogProps {
  /** The rows to delete; null when closed. */
  files: FileRowFragment[] | null;
  onClose: () => void;
  onDelete: (files: FileRowFragment[]) => Promise<void>;
}

/** §2's confirmation, listing what goes with the rows: everything in a folder, and the knowledge-base documents linked to them. */
export function DeleteFilesDialog({ files, onClose, onDelete }: DeleteFilesDialogProps) {
  const { t } = useTranslation();
  const ids = (files ?? []).map((file) => file.id);
  const impact = useQuery(FileDeletionImpactDocument, { variables: { ids }, skip: files === null, fetchPolicy: "network-only" });
  const documents = impact.data?.fileDeletionImpact.documents ?? [];
  const withFolder = files?.some(isFolder) ?? false;
  return (
    <ConfirmDeleteDialog open={files !== null} binKind="file" onClose={onClose} onConfirm={() => (files ? onDelete(files) : undefined)} subject={files?.map((file) => file.name).join(", ")}>
      <Stack gap="2" mt="3" fontSize="sm" data-testid="file-delete-impact">
        {withFolder && <Text color="fg.muted">{t("file.delete.folderContents")}</Text>}
        {impact.loading && !impact.data ? (
          <Spinner size="sm" color="fg.muted" />
        ) : (
          documents.length > 0 && (
            <Box borderWidth="1px" borderColor="border.error" bg="bg.error" rounded="l2" p="3">
              <Text fontWeight="medium" color="fg.error" mb="1.5">
                {t("file.delete.documents", { count: documents.length })}
              </Text>
              <Stack as="ul" gap="0.5" ps="4" maxHeight="40" overflowY="auto" listStyleType="disc" data-testid="file-delete-documents">
                {documents.map((document) => (
                  <li key={document.documentId}>{t("file.delete.documentIn", { document: document.documentName, knowledgeBase: document.knowledgeBaseName })}</li>
                ))}
              </Stack>
            </Box>
          )
        )}
      </Stack>
    </ConfirmDeleteDialog>
  );
}
