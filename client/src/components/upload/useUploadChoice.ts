import { useEffect, useState } from "react";
import { uploadLimitsOf, withAdded } from "../../documents/uploadSelection";

export type UploadPhase = { state: "choosing" } | { state: "uploading"; fraction: number } | { state: "failed"; reason: string };

interface UploadChoiceOptions {
  open: boolean;
  /** Sends the chosen files, reporting the fraction sent; a refusal is thrown. */
  send: (files: File[], onProgress: (fraction: number) => void) => Promise<void>;
  /** The refusal's text shown in the dialog. */
  describeFailure: (error: unknown) => string;
}

/** The files chosen in an upload dialog, §9's limits on them, and the upload's progress or refusal. */
export function useUploadChoice({ open, send, describeFailure }: UploadChoiceOptions) {
  const [files, setFiles] = useState<File[]>([]);
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
    phase,
    busy: phase.state === "uploading",
    add(list: FileList | null) {
      if (!list) return;
      // Copied now: the picker's list empties when its input is reset.
      const added = [...list];
      setFiles((current) => withAdded(current, added));
      setPhase({ state: "choosing" });
    },
    remove: (file: File) => setFiles((current) => current.filter((other) => other !== file)),
    async upload() {
      if (limits.blocked) return;
      setPhase({ state: "uploading", fraction: 0 });
      try {
        await send(files, (fraction) => setPhase({ state: "uploading", fraction }));
      } catch (error) {
        setPhase({ state: "failed", reason: describeFailure(error) });
      }
    },
  };
}

export type UploadChoice = ReturnType<typeof useUploadChoice>;
