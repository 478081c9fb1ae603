import { useMutation } from "@apollo/client/react";
import { useTranslation } from "react-i18next";
import { notify } from "../../../components/toaster";
import { describeError } from "../../../errors";
import { ChunksDocument, DeleteChunksDocument, KnowledgeBaseDocument, SetChunksAvailableDocument, UpdateChunkDocument, type ChunkCardFragment } from "../../../graphql/gql/graphql";

/** Switching chunks on and off, one or the ticked ones, and deleting the ticked ones; each reports in a toast. */
export function useChunkActions(selectedIds: string[], onDeleted: () => void) {
  const { t, i18n } = useTranslation();
  const [setAvailable, { loading: switching }] = useMutation(SetChunksAvailableDocument, { refetchQueries: [ChunksDocument] });
  const [updateChunk] = useMutation(UpdateChunkDocument);
  const [deleteChunks] = useMutation(DeleteChunksDocument, { refetchQueries: [ChunksDocument, KnowledgeBaseDocument] });
  const reportFailure = (failure: unknown) => notify.error(describeError(failure, i18n));

  /** A bulk action needs ticked chunks: without any, says so and refuses. */
  function requireSelection(): boolean {
    if (selectedIds.length > 0) return true;
    notify.error(t("errors.selectChunk"));
    return false;
  }

  return {
    switching,
    requireSelection,
    async setSelectedAvailable(available: boolean) {
      if (!requireSelection()) return;
      try {
        await setAvailable({ variables: { ids: selectedIds, available } });
        notify.success("modified");
      } catch (failure) {
        reportFailure(failure);
      }
    },
    async setAvailable(chunk: ChunkCardFragment, available: boolean) {
      try {
        await updateChunk({ variables: { id: chunk.id, available } });
      } catch (failure) {
        reportFailure(failure);
      }
    },
    async removeSelected() {
      try {
        await deleteChunks({ variables: { ids: selectedIds } });
        onDeleted();
        notify.success("deleted");
      } catch (failure) {
        reportFailure(failure);
      }
    },
  };
}

export type ChunkActions = ReturnType<typeof useChunkActions>;
