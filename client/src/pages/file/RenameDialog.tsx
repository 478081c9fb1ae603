import { useTranslation } from "react-i18next";
import { TextFieldsDialog } from "../../components/TextFieldsDialog";
import type { FieldProblems } from "../../errors";
import type { FileRowFragment } from "../../graphql/gql/graphql";
import { isFolder } from "./fileActions";
import { nameWithoutSuffix } from "./fileIcon";

interface RenameDialogProps {
  /** The row to rename; null when closed. */
  file: FileRowFragment | null;
  onClose: () => void;
  onRename: (file: FileRowFragment, name: string) => Promise<void>;
  describeFailure: (failure: unknown) => string;
  problemsOf: (failure: unknown) => FieldProblems;
}

/** A new name for a folder, or for a file without its extension, which stays (the server keeps it). */
export function RenameDialog({ file, onClose, onRename, describeFailure, problemsOf }: RenameDialogProps) {
  const { t } = useTranslation();
  const suffix = file && !isFolder(file) ? file.suffix : "";
  return (
    <TextFieldsDialog
      open={file !== null}
      title={t("file.rename.title")}
      testId="file-rename-dialog"
      fields={[
        {
          name: "name",
          label: t("file.rename.name"),
          required: true,
          requiredKey: "file.rename.nameRequired",
          initial: file ? nameWithoutSuffix(file.name, suffix) : "",
          helper: suffix ? t("file.rename.extensionStays", { extension: `.${suffix}` }) : undefined,
        },
      ]}
      onClose={onClose}
      onSubmit={async (values) => {
        if (!file) return;
        const stem = values.name.trim();
        await onRename(file, suffix ? `${stem}.${suffix}` : stem);
      }}
      describeFailure={describeFailure}
      problemsOf={problemsOf}
    />
  );
}
