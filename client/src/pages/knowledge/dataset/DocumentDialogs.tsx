import { useTranslation } from "react-i18next";
import { TextFieldsDialog } from "../../../components/TextFieldsDialog";
import type { DocumentRowFragment } from "../../../graphql/gql/graphql";
import type { AddFileKind } from "./AddFileMenu";
import type { DocumentActions } from "./useDocumentActions";
import { UploadDialog } from "./UploadDialog";

/** The dialog open over the document list, if any. */
export type DocumentDialog = { kind: AddFileKind } | { kind: "rename"; document: DocumentRowFragment } | null;

function isHttpUrl(value: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

interface DocumentDialogsProps {
  knowledgeBaseId: string;
  dialog: DocumentDialog;
  actions: DocumentActions;
  onClose: () => void;
}

/** The dialogs that add a document (upload, empty file, web crawl) or rename one. */
export function DocumentDialogs({ knowledgeBaseId, dialog, actions, onClose }: DocumentDialogsProps) {
  const { t } = useTranslation();
  return (
    <>
      <UploadDialog open={dialog?.kind === "upload"} knowledgeBaseId={knowledgeBaseId} onClose={onClose} onUploaded={actions.afterUpload} />
      <TextFieldsDialog
        open={dialog?.kind === "empty"}
        title={t("kb.dataset.emptyFile")}
        testId="empty-file-dialog"
        fields={[{ name: "name", label: t("kb.dataset.fileName"), required: true, requiredKey: "errors.knowledge.documentNameRequired" }]}
        onClose={onClose}
        onSubmit={(values) => actions.createEmpty(values.name.trim())}
        describeFailure={actions.describeFailure}
      />
      <TextFieldsDialog
        open={dialog?.kind === "crawl"}
        title={t("kb.dataset.webCrawl")}
        testId="crawl-dialog"
        fields={[
          { name: "url", label: "URL", type: "url", placeholder: "https://", required: true, requiredKey: "errors.knowledge.crawlUrlInvalid", check: (value) => (isHttpUrl(value) ? undefined : { key: "errors.knowledge.crawlUrlInvalid" }) },
          { name: "name", label: t("kb.dataset.fileName"), placeholder: t("kb.dataset.crawlNameHint") },
        ]}
        submitLabel={t("kb.dataset.crawl")}
        onClose={onClose}
        onSubmit={(values) => actions.crawl(values.url.trim(), values.name.trim() || null)}
        describeFailure={actions.describeFailure}
      />
      <TextFieldsDialog
        open={dialog?.kind === "rename"}
        title={t("kb.dataset.rename")}
        testId="rename-dialog"
        fields={[{ name: "name", label: t("kb.dataset.fileName"), required: true, requiredKey: "errors.knowledge.documentNameRequired", initial: dialog?.kind === "rename" ? dialog.document.name : "" }]}
        onClose={onClose}
        onSubmit={async (values) => {
          if (dialog?.kind !== "rename") return;
          await actions.rename(dialog.document.id, values.name.trim());
        }}
        describeFailure={actions.describeFailure}
      />
    </>
  );
}
