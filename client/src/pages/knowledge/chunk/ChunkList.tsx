import { Center, Icon, Skeleton, Stack, Text } from "@chakra-ui/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LuLayers } from "react-icons/lu";
import { ConfirmDeleteDialog } from "../../../components/ConfirmDeleteDialog";
import { LoadFailed } from "../../../components/LoadFailed";
import type { ChunkCardFragment } from "../../../graphql/gql/graphql";
import { Pager } from "../../../components/Pager";
import { ChunkCard, type ChunkView } from "./ChunkCard";
import { ChunkDocumentHeader } from "./ChunkDocumentHeader";
import { ChunkEditDialog } from "./ChunkEditDialog";
import { ChunkToolbar } from "./ChunkToolbar";
import { useChunkActions } from "./useChunkActions";
import { CHUNKS_PAGE_SIZE, useChunkList, type ChunkList as ChunkListState } from "./useChunkList";

/** A document's chunks: its header, the toolbar, the cards page by page, and the edit and delete dialogs. */
export function ChunkList({ documentId, initialSearch = "" }: { documentId: string; initialSearch?: string }) {
  const { t } = useTranslation();
  const list = useChunkList(documentId, initialSearch);
  const actions = useChunkActions(list.selectedIds, list.selection.clear);
  const [view, setView] = useState<ChunkView>("full");
  const [editing, setEditing] = useState<ChunkCardFragment | "new" | null>(null);
  const [deleting, setDeleting] = useState(false);

  return (
    <Stack gap="4">
      {list.document && <ChunkDocumentHeader document={list.document} onAdd={() => setEditing("new")} />}
      <ChunkToolbar list={list} actions={actions} view={view} onView={setView} onDelete={() => setDeleting(true)} />
      <ChunkCards list={list} view={view} onToggle={(chunk, available) => void actions.setAvailable(chunk, available)} onEdit={setEditing} />
      <ChunkEditDialog chunk={editing} documentId={documentId} onClose={() => setEditing(null)} />
      <ConfirmDeleteDialog open={deleting} subject={t("kb.chunk.deleteSubject", { count: list.selectedIds.length })} onClose={() => setDeleting(false)} onConfirm={actions.removeSelected} />
    </Stack>
  );
}

interface ChunkCardsProps {
  list: ChunkListState;
  view: ChunkView;
  onToggle: (chunk: ChunkCardFragment, available: boolean) => void;
  onEdit: (chunk: ChunkCardFragment) => void;
}

/** The cards and the pager, or what stands in for them: loading, a failure, or no chunk. */
function ChunkCards({ list, view, onToggle, onEdit }: ChunkCardsProps) {
  const { t } = useTranslation();
  if (list.loading && !list.loaded) {
    return (
      <Stack gap="3">
        <Skeleton height="24" rounded="l3" />
        <Skeleton height="24" rounded="l3" />
      </Stack>
    );
  }
  if (list.error && !list.loaded) return <LoadFailed py="12" error={list.error} onRetry={() => void list.refetch()} />;
  if (list.chunks.length === 0) {
    return (
      <Center py="14" flexDirection="column" gap="2" bg="bg.panel" borderWidth="1px" borderStyle="dashed" rounded="l3" textAlign="center" data-testid="chunks-empty">
        <Icon as={LuLayers} boxSize="6" color="fg.subtle" />
        <Text color="fg.muted">{list.filtered ? t("kb.chunk.noMatch") : t("kb.chunk.empty")}</Text>
      </Center>
    );
  }
  return (
    <Stack gap="3" data-testid="chunk-list">
      {list.chunks.map((chunk) => (
        <ChunkCard
          key={chunk.id}
          chunk={chunk}
          view={view}
          searching={list.searching}
          selected={list.selection.has(chunk.id)}
          onSelect={(on) => list.selection.toggle(chunk.id, on)}
          onToggle={(available) => onToggle(chunk, available)}
          onEdit={() => onEdit(chunk)}
        />
      ))}
      <Pager page={list.page} pageSize={CHUNKS_PAGE_SIZE} total={list.total} onPage={list.setPage} />
    </Stack>
  );
}
