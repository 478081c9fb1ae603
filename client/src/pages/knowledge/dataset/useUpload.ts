import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { describeTransferError, uploadDocuments } from "../../../documents/documentTransfer";
import { uploadLimitsOf, withAdded } from "../../../documents/uploadSelection";

export type UploadPhase = { state: "choosing" } | { state: "uploading"; fraction: number } | { state: "failed"; reason: string };

interface UploadOptions {
  open: boolean;
  knowledgeBaseId: string;
  onUploaded: (ids: string[], parse: boolean) => Promise<void> | void;
  onClose: () => void;
}

/** The files chosen for an upload, whether to parse them at once, and the upload's progress or failure. */
export function useUpload({ open, knowledgeBaseId, onUploaded, onClose }: UploadOptions) {
  const { t, i18n } = useTranslation();
  const [files, setFiles] = useState<File[]>([]);
  const [parse, setParse] = useState(true);
  const [phase, setPhase] = useState<UploadPhase>({ state: "choosing" });
  const limits = uploadLimitsOf(files);

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
    parse,
    setParse,
    phase,
    busy: phase.state === "uploading",
    add(list: FileList | null) {
      if (!list) return;
      setFiles(withAdded(files, [...list]));
      if (phase.state === "failed") setPhase({ state: "choosing" });
    },
    remove: (file: File) => setFiles(files.filter((other) => other !== file)),
    async upload() {
      if (limits.blocked) return;
      setPhase({ state: "uploading", fraction: 0 });
      try {
        const documents = await uploadDocuments(knowledgeBaseId, files, (fraction) => setPhase({ state: "uploading", fraction }));
        await onUploaded(
          documents.map((document) => document.id),
          parse,
        );
        onClose();
      } catch (error) {
        setPhase({ state: "failed", reason: describeTransferError(error, (key) => t(key), (key) => i18n.exists(key), "errors.uploadFailed") });
      }
    },
  };
}

export type Upload = ReturnType<typeof useUpload>;
