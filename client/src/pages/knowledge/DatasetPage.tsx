import { Box } from "@chakra-ui/react";
import { useState } from "react";
import { ConfirmDeleteDialog } from "../../components/ConfirmDeleteDialog";
import { LoadFailed } from "../../components/LoadFailed";
import { useFormatters } from "../../format";
import type { DocumentRowFragment, KnowledgeBaseSettingsFragment } from "../../graphql/gql/graphql";
import { AddFileMenu } from "./dataset/AddFileMenu";
import { DocumentDialogs, type DocumentDialog } from "./dataset/DocumentDialogs";
import { DocumentsEmpty } from "./dataset/DocumentsEmpty";
import { DocumentsLoading } from "./dataset/DocumentsLoading";
import type { DocumentRowHandlers } from "./dataset/DocumentRowActions";
import { DocumentTable } from "./dataset/DocumentTable";
import { DocumentToolbar } from "./dataset/DocumentToolbar";
import { ParserSettingsDialog } from "./dataset/ParserSettingsDialog";
import { useDocumentActions } from "./dataset/useDocumentActions";
import { DOCUMENTS_PAGE_SIZE, useDocumentList, type DocumentList } from "./dataset/useDocumentList";
import { KnowledgeBaseLayout } from "./KnowledgeBaseLayout";
import { Pager } from "../../components/Pager";
import { SectionHeading } from "./SectionHeading";

function Dataset({ kb }: { kb: KnowledgeBaseSettingsFragment }) {
  const format = useFormatters();
  const list = useDocumentList(kb.id);
  const actions = useDocumentActions({ knowledgeBaseId: kb.id, refetchList: list.refetch, onDeleted: list.selection.clear });
  const [dialog, setDialog] = useState<DocumentDialog>(null);
  const [parserOf, setParserOf] = useState<DocumentRowFragment | null>(null);
  const [deleting, setDeleting] = useState<DocumentRowFragment[] | null>(null);
  const rowHandlers: DocumentRowHandlers = {
    run: actions.run,
    cancel: actions.cancel,
    enable: actions.enable,
    download: actions.download,
    editParser: setParserOf,
    rename: (document) => setDialog({ kind: "rename", document }),
    delete: setDeleting,
  };

  return (
    <>
      <SectionHeading page="dataset" actions={<AddFileMenu onAdd={(kind) => setDialog({ kind })} />} />

      <Box bg="bg.panel" borderWidth="1px" rounded="l3" overflow="hidden">
        <DocumentToolbar list={list} actions={actions} formatNumber={format.number} onDelete={setDeleting} />
        <DocumentListBody knowledgeBaseId={kb.id} list={list} handlers={rowHandlers} onUpload={() => setDialog({ kind: "upload" })} />
        {list.total > DOCUMENTS_PAGE_SIZE && (
          <Box px="4" py="3" borderTopWidth="1px">
            <Pager page={list.page} pageSize={DOCUMENTS_PAGE_SIZE} total={list.total} onPage={list.setPage} />
          </Box>
        )}
      </Box>

      <DocumentDialogs knowledgeBaseId={kb.id} dialog={dialog} actions={actions} onClose={() => setDialog(null)} />
      <ParserSettingsDialog document={parserOf} onClose={() => setParserOf(null)} onChanged={list.forgetProgress} />
      <ConfirmDeleteDialog
        open={deleting !== null}
        binKind="document"
        subject={deleting?.map((document) => document.name).join(", ")}
        onClose={() => setDeleting(null)}
        onConfirm={() => (deleting ? actions.remove(deleting) : undefined)}
      />
    </>
  );
}

/** The table, or what stands in for it: loading, a failure, or no document. */
function DocumentListBody({ knowledgeBaseId, list, handlers, onUpload }: { knowledgeBaseId: string; list: DocumentList; handlers: DocumentRowHandlers; onUpload: () => void }) {
  if (list.loading && !list.loaded) return <DocumentsLoading />;
  if (list.error && !list.loaded) return <LoadFailed py="12" error={list.error} onRetry={() => void list.refetch()} />;
  if (list.documents.length === 0) return <DocumentsEmpty filtered={list.filtered} onUpload={onUpload} />;
  return <DocumentTable knowledgeBaseId={knowledgeBaseId} list={list} handlers={handlers} />;
}

export default function DatasetPage() {
  return <KnowledgeBaseLayout section="dataset">{(kb) => <Dataset kb={kb} />}</KnowledgeBaseLayout>;
}
