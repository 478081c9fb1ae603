import { Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ActionDialog } from "../../components/ActionDialog";
import { KnowledgeBasePicker } from "../../components/KnowledgeBasePicker";
import { LoadFailed } from "../../components/LoadFailed";
import { FileLinkChoicesDocument, type FileRowFragment } from "../../graphql/gql/graphql";
import { isFolder } from "./fileActions";

interface LinkDialogProps {
  /** The files or folders to link; null when closed. */
  files: FileRowFragment[] | null;
  onClose: () => void;
  /** Links the rows to the knowledge bases ticked (the server starts parsing); a refusal is thrown. */
  onLink: (files: FileRowFragment[], knowledgeBaseIds: string[]) => Promise<void>;
  describeFailure: (failure: unknown) => string;
}

/** Makes files (or every file in a folder) documents of one or more knowledge bases, without copying their bytes. */
export function LinkDialog({ files, onClose, onLink, describeFailure }: LinkDialogProps) {
  const { t } = useTranslation();
  const open = files !== null;
  const choices = useQuery(FileLinkChoicesDocument, { skip: !open, fetchPolicy: "cache-and-network" });
  const [chosen, setChosen] = useState<string[]>([]);
  const [missing, setMissing] = useState(false);

  useEffect(() => {
    if (!open) return;
    setChosen([]);
    setMissing(false);
  }, [open]);

  const withFolder = files?.some(isFolder) ?? false;
  // Linking adds links: the knowledge bases every chosen file is in already are not offered again.
  const [first, ...others] = (files ?? []).map((file) => file.knowledgeBases.map((link) => link.id));
  const linkedToAll = new Set((first ?? []).filter((id) => others.every((ids) => ids.includes(id))));
  const already = files?.length === 1 && !withFolder ? files[0].knowledgeBases.map((link) => link.name) : [];
  return (
    <ActionDialog
      open={open}
      title={files?.length === 1 ? t("file.link.titleOne", { name: files[0].name }) : t("file.link.title", { count: files?.length ?? 0 })}
      submitLabel={t("file.link.submit")}
      testIdPrefix="file-link"
      onClose={onClose}
      check={() => {
        setMissing(chosen.length === 0);
        return chosen.length > 0;
      }}
      onSubmit={async () => {
        if (files) await onLink(files, chosen);
      }}
      describeFailure={describeFailure}
    >
      <Text fontSize="sm" color="fg.muted">
        {withFolder ? t("file.link.explainFolder") : t("file.link.explain")}
      </Text>
      {choices.error && !choices.data ? (
        <LoadFailed py="6" error={choices.error} onRetry={() => void choices.refetch()} />
      ) : (
        <KnowledgeBasePicker
          choices={(choices.data?.knowledgeBases.items ?? []).filter((kb) => withFolder || !linkedToAll.has(kb.id))}
          value={chosen}
          onChange={(ids) => {
            setChosen(ids);
            setMissing(false);
          }}
          invalid={missing}
          testId="file-link-kb"
        />
      )}
      {missing && (
        <Text color="fg.error" fontSize="sm" data-testid="file-link-missing">
          {t("file.link.chooseOne")}
        </Text>
      )}
      {already.length > 0 && (
        <Text fontSize="sm" color="fg.muted" data-testid="file-link-already">
          {t("file.link.already", { names: already.join(", ") })}
        </Text>
      )}
    </ActionDialog>
  );
}
