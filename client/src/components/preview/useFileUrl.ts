import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { describeTransferError, fetchBlob } from "../../documents/documentTransfer";
import { blobTypeOf } from "./previewLogic";

export type FileUrl = { state: "loading" } | { state: "failed"; reason: string } | { state: "ready"; url: string };

/** The file's bytes (fetched with the session's credential) as a blob URL the browser can draw, typed by the file's name. */
export function useFileUrl(downloadUrl: string, fileName: string): FileUrl {
  const { t, i18n } = useTranslation();
  const [file, setFile] = useState<FileUrl>({ state: "loading" });
  useEffect(() => {
    let url: string | null = null;
    let cancelled = false;
    setFile({ state: "loading" });
    fetchBlob(downloadUrl).then(
      (blob) => {
        if (cancelled) return;
        url = URL.createObjectURL(new Blob([blob], { type: blobTypeOf(fileName) ?? blob.type }));
        setFile({ state: "ready", url });
      },
      (error: unknown) => !cancelled && setFile({ state: "failed", reason: describeTransferError(error, (key) => t(key), (key) => i18n.exists(key), "preview.loadFailed") }),
    );
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [downloadUrl, fileName, t, i18n]);
  return file;
}
