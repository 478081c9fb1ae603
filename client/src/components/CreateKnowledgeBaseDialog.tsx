import { useMutation } from "@apollo/client/react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { notify } from "./toaster";
import { describeError } from "../errors";
import { CreateKnowledgeBaseDocument } from "../graphql/gql/graphql";
import { TextFieldsDialog } from "./TextFieldsDialog";

interface CreateKnowledgeBaseDialogProps {
  open: boolean;
  onClose(): void;
  /** Where the new knowledge base opens: the page of it that the caller's next step is on. */
  pageOf(id: string): string;
}

/** Asks for a name, creates the knowledge base (queries on screen are read again) and opens it. */
export function CreateKnowledgeBaseDialog({ open, onClose, pageOf }: CreateKnowledgeBaseDialogProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [createKnowledgeBase] = useMutation(CreateKnowledgeBaseDocument);

  async function create(values: Record<string, string>) {
    const { data } = await createKnowledgeBase({ variables: { input: { name: values.name.trim() } }, refetchQueries: "active" });
    notify.success("created");
    if (data) navigate(pageOf(data.createKnowledgeBase.id));
  }

  return (
    <TextFieldsDialog
      open={open}
      title={t("kb.list.createTitle")}
      submitLabel={t("kb.list.createSubmit")}
      testId="kb-create-dialog"
      fields={[{ name: "name", label: t("kb.field.name"), placeholder: t("kb.list.namePlaceholder"), required: true, requiredKey: "errors.knowledge.nameRequired" }]}
      onClose={onClose}
      onSubmit={create}
      describeFailure={(failure) => describeError(failure, i18n)}
    />
  );
}
