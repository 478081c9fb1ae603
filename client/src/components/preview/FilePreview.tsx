import { Box, Button, Center, Image, Spinner, Stack, Text } from "@chakra-ui/react";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { LuDownload, LuFileQuestion } from "react-icons/lu";
import { describeTransferError, downloadFile } from "../../documents/documentTransfer";
import type { FilePreviewFragment } from "../../graphql/gql/graphql";
import { EmailPreview } from "./EmailPreview";
import { HtmlPreview } from "./HtmlPreview";
import { MarkdownPreview } from "./MarkdownPreview";
import { SlidesPreview } from "./SlidesPreview";
import { TablePreview } from "./TablePreview";
import { TextPreview } from "./TextPreview";
import { useFileUrl } from "./useFileUrl";

// pdf.js comes only with a PDF.
const PdfPages = lazy(() => import("./PdfPages"));

export interface FilePreviewProps {
  /** The server's rendering of the file (fragment FilePreview of graphql/preview.graphql). */
  preview: FilePreviewFragment;
  /** Where the file's bytes are (GET, sent with the session's bearer credential): drawn for PDFs and pictures, offered as a download otherwise. */
  downloadUrl: string;
}

const loading = (
  <Center py="24">
    <Spinner color="brand.solid" />
  </Center>
);

function Failed({ reason }: { reason: string }) {
  return (
    <Center py="16" color="fg.error" role="alert">
      {reason}
    </Center>
  );
}

function PdfPreview({ downloadUrl, fileName }: { downloadUrl: string; fileName: string }) {
  const file = useFileUrl(downloadUrl, fileName);
  if (file.state === "loading") return loading;
  if (file.state === "failed") return <Failed reason={file.reason} />;
  return (
    <Suspense fallback={loading}>
      <PdfPages url={file.url} />
    </Suspense>
  );
}

function ImagePreview({ downloadUrl, fileName }: { downloadUrl: string; fileName: string }) {
  const file = useFileUrl(downloadUrl, fileName);
  if (file.state === "loading") return loading;
  if (file.state === "failed") return <Failed reason={file.reason} />;
  return (
    <Center p="4" bg="bg.subtle" rounded="l2">
      <Image src={file.url} alt={fileName} maxHeight="75vh" maxWidth="full" objectFit="contain" data-testid="preview-image" />
    </Center>
  );
}

function DownloadButton({ downloadUrl, fileName }: { downloadUrl: string; fileName: string }) {
  const { t, i18n } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  async function download() {
    setError(null);
    try {
      await downloadFile(downloadUrl, fileName);
    } catch (failure) {
      setError(describeTransferError(failure, (key) => t(key), (key) => i18n.exists(key), "preview.loadFailed"));
    }
  }
  return (
    <Stack gap="1" align="center">
      <Button size="sm" variant="outline" onClick={() => void download()} data-testid="preview-download">
        <LuDownload /> {t("preview.download")}
      </Button>
      {error && (
        <Text fontSize="sm" color="fg.error">
          {error}
        </Text>
      )}
    </Stack>
  );
}

function UnsupportedPreview({ preview, downloadUrl }: FilePreviewProps) {
  const { t } = useTranslation();
  return (
    <Center py="16" flexDirection="column" gap="4" textAlign="center" data-testid="preview-unsupported">
      <Box rounded="full" bg="bg.muted" color="fg.muted" p="4">
        <LuFileQuestion size="28" />
      </Box>
      <Text color="fg.muted" maxWidth="md" data-testid="preview-reason">
        {preview.reason ? t(preview.reason.messageKey, preview.reason.params) : t("preview.reason.unreadable")}
      </Text>
      <DownloadButton downloadUrl={downloadUrl} fileName={preview.fileName} />
    </Center>
  );
}

function PreviewOfKind({ preview, downloadUrl }: FilePreviewProps) {
  switch (preview.kind) {
    case "pdf":
      return <PdfPreview downloadUrl={downloadUrl} fileName={preview.fileName} />;
    case "image":
      return <ImagePreview downloadUrl={downloadUrl} fileName={preview.fileName} />;
    case "html":
      return <HtmlPreview html={preview.html ?? ""} />;
    case "markdown":
      return <MarkdownPreview markdown={preview.markdown ?? ""} />;
    case "table":
      return <TablePreview sheets={preview.sheets ?? []} />;
    case "email":
      return preview.email ? <EmailPreview email={preview.email} /> : <UnsupportedPreview preview={preview} downloadUrl={downloadUrl} />;
    case "text":
      return <TextPreview text={preview.text ?? ""} language={preview.language} />;
    case "slides":
      return <SlidesPreview slides={preview.slides ?? []} />;
    default:
      return <UnsupportedPreview preview={preview} downloadUrl={downloadUrl} />;
  }
}

/**
 * A file rendered for reading (never its raw bytes), in the view of its preview's kind: PDFs drawn by pdf.js,
 * pictures, formatted documents, Markdown, sheets, e-mail, highlighted code, slides — or why there is none, with
 * the file to download. A cut preview says so.
 */
export function FilePreview({ preview, downloadUrl }: FilePreviewProps) {
  const { t } = useTranslation();
  const padded = preview.kind !== "pdf";
  return (
    <Box data-testid="file-preview" data-kind={preview.kind} p={padded ? { base: "3", md: "5" } : undefined}>
      {preview.truncated && preview.kind !== "table" && (
        <Text fontSize="sm" color="fg.muted" mb="3" data-testid="preview-truncated">
          {t("preview.truncated")}
        </Text>
      )}
      <PreviewOfKind preview={preview} downloadUrl={downloadUrl} />
    </Box>
  );
}
