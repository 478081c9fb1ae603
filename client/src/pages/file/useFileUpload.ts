import { useTranslation } from "react-i18next";
import { notify } from "../../components/toaster";
import { useUploadChoice } from "../../components/upload/useUploadChoice";
import { describeTransferError, TransferError } from "../../documents/documentTransfer";
import { foldersCreatedBy, uploadPathOf } from "./folderUpload";
import { uploadFiles } from "./fileTransfer";

interface UploadOptions {
  open: boolean;
  folderId: string | null;
  onUploaded: () => Promise<unknown> | void;
  onClose: () => void;
}

/** The files (or a whole folder's) chosen for an upload into a folder, §9's limits on them, and the upload's progress or refusal. */
export function useFileUpload({ open, folderId, onUploaded, onClose }: UploadOptions) {
  const { t, i18n } = useTranslation();

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

  const choice = useUploadChoice({
    open,
    async send(files, onProgress) {
      await uploadFiles(folderId, files, onProgress);
      notify.success("uploaded");
      await onUploaded();
      onClose();
    },
    describeFailure: refusalOf,
  });
  return {
    ...choice,
    /** The folders the upload will create, from the paths of a picked folder's files. */
    folders: foldersCreatedBy(choice.files.map(uploadPathOf)),
  };
}

export type FileUpload = ReturnType<typeof useFileUpload>;
