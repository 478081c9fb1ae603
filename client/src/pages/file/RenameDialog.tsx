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
  const stem = file ? nameWithoutSuffix(file.name, isFolder(file) ? "" : file.suffix) : "";
  // The extension as written in the name (".PDF" stays ".PDF").
  const extension = file ? file.name.slice(stem.length) : "";
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
          initial: stem,
          helper: extension ? t("file.rename.extensionStays", { extension }) : undefined,
        },
      ]}
      onClose={onClose}
      onSubmit={async (values) => {
        if (!file) return;
        await onRename(file, `${values.name.trim()}${extension}`);
      }}
      describeFailure={describeFailure}
      problemsOf={problemsOf}
    />
  );
}
