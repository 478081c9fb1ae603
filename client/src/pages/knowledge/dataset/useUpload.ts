import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useUploadChoice } from "../../../components/upload/useUploadChoice";
import { describeTransferError, uploadDocuments } from "../../../documents/documentTransfer";

interface UploadOptions {
  open: boolean;
  knowledgeBaseId: string;
  onUploaded: (ids: string[], parse: boolean) => Promise<void> | void;
  onClose: () => void;
}

/** The files chosen for an upload into a knowledge base, whether to parse them at once, and the upload's progress or failure. */
export function useUpload({ open, knowledgeBaseId, onUploaded, onClose }: UploadOptions) {
  const { t, i18n } = useTranslation();
  const [parse, setParse] = useState(true);
  const choice = useUploadChoice({
    open,
    async send(files, onProgress) {
      const documents = await uploadDocuments(knowledgeBaseId, files, onProgress);
      await onUploaded(
        documents.map((document) => document.id),
        parse,
      );
      onClose();
    },
    describeFailure: (error) => describeTransferError(error, (key) => t(key), (key) => i18n.exists(key), "errors.uploadFailed"),
  });
  return { ...choice, parse, setParse };
}

export type Upload = ReturnType<typeof useUpload>;
