import { useTranslation } from "react-i18next";
import { UploadDialogFrame } from "../../components/upload/UploadDialogFrame";
import { UploadDropZone } from "../../components/upload/UploadDropZone";
import { UploadFileList } from "../../components/upload/UploadFileList";
import { UploadStatus } from "../../components/upload/UploadStatus";
import { MAX_FILES_PER_UPLOAD } from "../../documents/documentTransfer";
import { uploadPathOf } from "./folderUpload";
import type { FileUpload } from "./useFileUpload";

interface FileUploadDialogProps {
  open: boolean;
  /** The name of the destination, for the title. */
  folderName: string;
  upload: FileUpload;
  onClose: () => void;
}

/** Files or a whole folder to upload into the open folder, checked against §9's limits before anything is sent. */
export function FileUploadDialog({ open, folderName, upload, onClose }: FileUploadDialogProps) {
  const { t } = useTranslation();
  const { busy, files, tooMany, tooLarge } = upload;
  // §8's 413 text with §9's limits: every reason that blocks the upload.
  const limitProblems = [
    tooMany && t("file.upload.tooMany", { count: files.length, max: MAX_FILES_PER_UPLOAD }),
    tooLarge.length > 0 && t("file.upload.tooLarge", { names: tooLarge.map(uploadPathOf).join(", "), size: "10 MB" }),
  ].filter((problem) => typeof problem === "string");
  const summary =
    files.length > 0
      ? [t("file.upload.files", { count: files.length }), upload.folders.length > 0 ? t("file.upload.newFolders", { count: upload.folders.length }) : null].filter(Boolean).join(" · ")
      : "";
  return (
    <UploadDialogFrame open={open} title={t("file.upload.title", { folder: folderName })} upload={upload} summary={summary} submitLabel={t("file.upload.submit")} testIdPrefix="file-upload" onClose={onClose}>
      <UploadDropZone
        busy={busy}
        onAdd={upload.add}
        texts={{ drop: t("file.upload.drop"), limits: t("file.upload.limits", { files: MAX_FILES_PER_UPLOAD, size: "10 MB" }) }}
        pickers={{ files: t("file.upload.chooseFiles"), folder: t("file.upload.chooseFolder") }}
        testIdPrefix="file-upload"
      />
      <UploadFileList files={files} busy={busy} onRemove={upload.remove} nameOf={uploadPathOf} removeLabel={(name) => t("file.upload.remove", { name })} testIdPrefix="file-upload" />
      <UploadStatus
        phase={upload.phase}
        limitProblems={limitProblems}
        uploadingText={t("file.upload.uploading")}
        testIds={{ limit: "file-upload-limit", progress: "file-upload-progress", failed: "file-upload-failed" }}
      />
    </UploadDialogFrame>
  );
}
