import { useApolloClient, useMutation } from "@apollo/client/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notify } from "../../../components/toaster";
import { describeTransferError, downloadDocument } from "../../../documents/documentTransfer";
import { describeError } from "../../../errors";
import {
  CancelParsingDocument,
  CrawlWebPageDocument,
  CreateEmptyDocumentDocument,
  DeleteDocumentsDocument,
  DocumentsDocument,
  KnowledgeBaseDocument,
  RenameDocumentDocument,
  RunParsingDocument,
  SetDocumentsEnabledDocument,
  type DocumentRowFragment,
} from "../../../graphql/gql/graphql";

interface DocumentActionsOptions {
  knowledgeBaseId: string;
  /** Reads the document list again, after an upload. */
  refetchList: () => Promise<unknown>;
  /** Called once documents are deleted (the ticked rows are gone). */
  onDeleted: () => void;
}

/** What a user can do to a knowledge base's documents, each reporting its outcome in a toast. */
export function useDocumentActions({ knowledgeBaseId, refetchList, onDeleted }: DocumentActionsOptions) {
  const { t, i18n } = useTranslation();
  const client = useApolloClient();
  const [busy, setBusy] = useState(false);
  const refreshAll = { refetchQueries: [DocumentsDocument, KnowledgeBaseDocument] };
  const [runParsing] = useMutation(RunParsingDocument);
  const [cancelParsing] = useMutation(CancelParsingDocument);
  const [setEnabled] = useMutation(SetDocumentsEnabledDocument);
  const [deleteDocuments] = useMutation(DeleteDocumentsDocument, refreshAll);
  const [renameDocument] = useMutation(RenameDocumentDocument);
  const [createEmptyDocument] = useMutation(CreateEmptyDocumentDocument, refreshAll);
  const [crawlWebPage] = useMutation(CrawlWebPageDocument, refreshAll);

  const reportFailure = (failure: unknown) => notify.error(describeError(failure, i18n));

  /** A bulk or row action: the bulk buttons show `busy` while it runs. */
  async function act(action: () => Promise<unknown>, success: Parameters<typeof notify.success>[0] = "operated") {
    setBusy(true);
    try {
      await action();
      notify.success(success);
    } catch (failure) {
      reportFailure(failure);
    } finally {
      setBusy(false);
    }
  }

  return {
    busy,
    run: (ids: string[]) => act(() => runParsing({ variables: { ids } })),
    cancel: (ids: string[]) => act(() => cancelParsing({ variables: { ids } })),
    enable: (ids: string[], enabled: boolean) => act(() => setEnabled({ variables: { ids, enabled } }), "modified"),
    async remove(documents: DocumentRowFragment[]) {
      try {
        await deleteDocuments({ variables: { ids: documents.map((document) => document.id) } });
        onDeleted();
        notify.success("deleted");
      } catch (failure) {
        reportFailure(failure);
      }
    },
    async download(document: DocumentRowFragment) {
      try {
        await downloadDocument(document.id, document.name);
      } catch (failure) {
        notify.error(describeTransferError(failure, (key) => t(key), (key) => i18n.exists(key), "errors.fileError"));
      }
    },
    async afterUpload(ids: string[], parse: boolean) {
      notify.success("uploaded");
      if (parse && ids.length > 0) await runParsing({ variables: { ids } }).catch(reportFailure);
      await Promise.all([refetchList(), client.refetchQueries({ include: [KnowledgeBaseDocument] })]);
    },
    /** The three dialog actions throw, so that their dialog shows the failure under its fields. */
    async createEmpty(name: string) {
      await createEmptyDocument({ variables: { knowledgeBaseId, name } });
      notify.success("created");
    },
    async crawl(url: string, name: string | null) {
      await crawlWebPage({ variables: { knowledgeBaseId, url, name } });
      notify.success("created");
    },
    async rename(id: string, name: string) {
      await renameDocument({ variables: { id, name } });
      notify.success("renamed");
    },
    describeFailure: (failure: unknown) => describeError(failure, i18n),
  };
}

export type DocumentActions = ReturnType<typeof useDocumentActions>;
