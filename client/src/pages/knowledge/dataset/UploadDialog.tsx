import { Checkbox } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { UploadDialogFrame } from "../../../components/upload/UploadDialogFrame";
import { UploadDropZone } from "../../../components/upload/UploadDropZone";
import { UploadFileList } from "../../../components/upload/UploadFileList";
import { UploadStatus } from "../../../components/upload/UploadStatus";
import { MAX_FILES_PER_UPLOAD } from "../../../documents/documentTransfer";
import { useUpload } from "./useUpload";

interface UploadDialogProps {
  open: boolean;
  knowledgeBaseId: string;
  onClose: () => void;
  /** Called with the new documents' ids and whether to parse them at once. */
  onUploaded: (ids: string[], parse: boolean) => Promise<void> | void;
}

/** Files to upload: picked or dropped, checked against §9's limits before anything is sent. */
export function UploadDialog({ open, knowledgeBaseId, onClose, onUploaded }: UploadDialogProps) {
  const { t } = useTranslation();
  const upload = useUpload({ open, knowledgeBaseId, onUploaded, onClose });
  const { busy, files, tooMany, tooLarge } = upload;
  // One reason at a time: too many files first.
  const limitProblems = tooMany
    ? [t("kb.upload.tooMany", { count: files.length, max: MAX_FILES_PER_UPLOAD })]
    : tooLarge.length > 0
      ? [t("kb.upload.tooLarge", { names: tooLarge.map((file) => file.name).join(", "), size: "10 MB" })]
      : [];

  return (
    <UploadDialogFrame open={open} title={t("kb.upload.title")} upload={upload} summary={files.length > 0 ? t("kb.upload.selected", { count: files.length }) : ""} submitLabel={t("kb.upload.submit")} testIdPrefix="upload" onClose={onClose}>
      <UploadDropZone
        busy={busy}
        onAdd={upload.add}
        texts={{ drop: t("kb.upload.drop"), limits: t("kb.upload.limits", { files: MAX_FILES_PER_UPLOAD, size: "10 MB" }) }}
        testIdPrefix="upload"
      />
      <UploadFileList files={files} busy={busy} onRemove={upload.remove} nameOf={(file) => file.name} removeLabel={(name) => t("kb.upload.remove", { name })} testIdPrefix="upload" />
      <UploadStatus
        phase={upload.phase}
        limitProblems={limitProblems}
        uploadingText={t("kb.upload.uploading")}
        testIds={{ limit: "upload-limit-error", progress: "upload-progress", failed: "upload-failed" }}
      />
      <Checkbox.Root checked={upload.parse} onCheckedChange={(details) => upload.setParse(details.checked === true)} colorPalette="brand" disabled={busy}>
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label>{t("kb.upload.parseOnUpload")}</Checkbox.Label>
      </Checkbox.Root>
    </UploadDialogFrame>
  );
}
