import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { notify } from "../../components/toaster";
import { describeTransferError, TransferError } from "../../documents/documentTransfer";
import { uploadLimitsOf, withAdded } from "../../documents/uploadSelection";
import { foldersCreatedBy, uploadPathOf } from "./folderUpload";
import { uploadFiles } from "./fileTransfer";

export type UploadPhase = { state: "choosing" } | { state: "uploading"; fraction: number } | { state: "failed"; reason: string };

interface UploadOptions {
  open: boolean;
  folderId: string | null;
  onUploaded: () => Promise<unknown> | void;
  onClose: () => void;
}

/** The files (or a whole folder's) chosen for an upload into a folder, §9's limits on them, and the upload's progress or refusal. */
export function useFileUpload({ open, folderId, onUploaded, onClose }: UploadOptions) {
  const { t, i18n } = useTranslation();
  const [files, setFiles] = useState<File[]>([]);
  const [phase, setPhase] = useState<UploadPhase>({ state: "choosing" });
  const limits = uploadLimitsOf(files);

  /** The server's refusal in its own words (its message key, translated), after §8's text for its HTTP status if there is one. */
  function refusalOf(error: unknown): string {
    if (!(error instanceof TransferError) || !error.messageKey || !i18n.exists(error.messageKey)) {
      return describeTransferError(error, (key) => t(key), (key) => i18n.exists(key), "errors.uploadFailed");
    }
    const specific = t(error.messageKey, error.params ?? {});
    // 400 and 500 say nothing the specific message does not.
    const statusKey = `httpStatus.${error.status}`;
    return i18n.exists(statusKey) && error.status !== 400 && error.status !== 500 ? `${t(statusKey)} ${specific}` : specific;
  }

  // Each opening starts with an empty list.
  useEffect(() => {
    if (open) {
      setFiles([]);
      setPhase({ state: "choosing" });
    }
  }, [open]);

  return {
    files,
    ...limits,
    /** The folders the upload will create, from the paths of a picked folder's files. */
    folders: foldersCreatedBy(files.map(uploadPathOf)),
    phase,
    busy: phase.state === "uploading",
    add(list: FileList | null) {
      if (!list) return;
      setFiles((current) => withAdded(current, [...list]));
      setPhase({ state: "choosing" });
    },
    remove: (file: File) => setFiles((current) => current.filter((other) => other !== file)),
    clear: () => setFiles([]),
    async upload() {
      if (limits.blocked) return;
      setPhase({ state: "uploading", fraction: 0 });
      try {
        await uploadFiles(folderId, files, (fraction) => setPhase({ state: "uploading", fraction }));
        notify.success("uploaded");
        await onUploaded();
        onClose();
      } catch (error) {
        setPhase({ state: "failed", reason: refusalOf(error) });
      }
    },
  };
}

export type FileUpload = ReturnType<typeof useFileUpload>;
