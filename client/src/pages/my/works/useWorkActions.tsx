import { useMutation } from "@apollo/client/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { ConfirmDeleteDialog } from "../../../components/ConfirmDeleteDialog";
import { EmbedDialog } from "../../../components/share/EmbedDialog";
import { TextFieldsDialog } from "../../../components/TextFieldsDialog";
import { notify } from "../../../components/toaster";
import { describeError } from "../../../errors";
import {
  DeleteAssistantsDocument,
  DeleteFilesDocument,
  DeleteFlowCardDocument,
  DeleteKnowledgeBaseDocument,
  DeleteSearchRecordsDocument,
  RenameFileDocument,
  UpdateAssistantDocument,
  UpdateFlowCardDocument,
  UpdateKnowledgeBaseDocument,
  type WorkCardFragment,
} from "../../../graphql/gql/graphql";
import type { WorkAction } from "./WorkItems";
import { renameProblemsOf } from "./workLogic";

/**
 * My space's quick actions, each through its kind's own mutation (so every rule stays in its domain): rename, share as
 * the kind shares (a team permission, an assistant's share link), delete (into the recycle bin; a search is removed from
 * the history). `onChanged` refetches.
 */
export function useWorkActions(onChanged: () => Promise<unknown>) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [renaming, setRenaming] = useState<WorkCardFragment | null>(null);
  const [deleting, setDeleting] = useState<WorkCardFragment | null>(null);
  const [embedding, setEmbedding] = useState<WorkCardFragment | null>(null);
  const [updateKnowledgeBase] = useMutation(UpdateKnowledgeBaseDocument);
  const [updateAssistant] = useMutation(UpdateAssistantDocument);
  const [updateFlow] = useMutation(UpdateFlowCardDocument);
  const [renameFile] = useMutation(RenameFileDocument);
  const [deleteKnowledgeBase] = useMutation(DeleteKnowledgeBaseDocument);
  const [deleteAssistants] = useMutation(DeleteAssistantsDocument);
  const [deleteFlow] = useMutation(DeleteFlowCardDocument);
  const [deleteFiles] = useMutation(DeleteFilesDocument);
  const [deleteSearches] = useMutation(DeleteSearchRecordsDocument);

  async function rename(work: WorkCardFragment, name: string) {
    const id = work.id;
    if (work.kind === "knowledgeBase") await updateKnowledgeBase({ variables: { id, input: { name } } });
    else if (work.kind === "assistant") await updateAssistant({ variables: { id, input: { name } } });
    else if (work.kind === "flow") await updateFlow({ variables: { id, input: { title: name } } });
    else if (work.kind === "file") await renameFile({ variables: { id, name } });
    notify.success("renamed");
    await onChanged();
  }

  async function shareWithTeam(work: WorkCardFragment) {
    const permission = work.teamShared ? "me" : "team";
    try {
      if (work.kind === "knowledgeBase") await updateKnowledgeBase({ variables: { id: work.id, input: { permission } } });
      else await updateFlow({ variables: { id: work.id, input: { permission } } });
      notify.success("modified");
      await onChanged();
    } catch (failure) {
      notify.error(describeError(failure, i18n));
    }
  }

  async function remove(work: WorkCardFragment) {
    try {
      const id = work.id;
      if (work.kind === "knowledgeBase") await deleteKnowledgeBase({ variables: { id } });
      else if (work.kind === "assistant") await deleteAssistants({ variables: { ids: [id] } });
      else if (work.kind === "flow") await deleteFlow({ variables: { id } });
      else if (work.kind === "file") await deleteFiles({ variables: { ids: [id] } });
      else if (work.kind === "search") await deleteSearches({ variables: { ids: [id] } });
      notify.success("deleted");
      await onChanged();
    } catch (failure) {
      notify.error(describeError(failure, i18n));
    }
  }

  function act(action: WorkAction, work: WorkCardFragment) {
    if (action === "rename") setRenaming(work);
    else if (action === "delete") setDeleting(work);
    else if (work.kind === "assistant") setEmbedding(work);
    else void shareWithTeam(work);
  }

  const element = (
    <>
      <TextFieldsDialog
        open={renaming !== null}
        title={t("works.renameTitle", { name: renaming?.name ?? "" })}
        testId="work-rename-dialog"
        fields={[{ name: "name", label: t("works.name"), required: true, requiredKey: "works.errors.nameRequired", initial: renaming?.name }]}
        onClose={() => setRenaming(null)}
        onSubmit={async (values) => (renaming ? rename(renaming, values.name.trim()) : undefined)}
        describeFailure={(failure) => describeError(failure, i18n)}
        problemsOf={renameProblemsOf}
      />
      <ConfirmDeleteDialog open={deleting !== null} subject={deleting?.name} onClose={() => setDeleting(null)} onConfirm={() => (deleting ? remove(deleting) : undefined)} />
      <EmbedDialog assistant={embedding} onClose={() => setEmbedding(null)} onOpenApiKeys={() => navigate("/user-setting/api")} />
    </>
  );
  return { act, element };
}
