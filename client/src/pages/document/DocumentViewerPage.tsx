import { Badge, Box, Button, Center, Flex, HStack, Image, Spinner, Stack, Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { LuDownload, LuFileText, LuLogIn, LuQuote } from "react-icons/lu";
import { Link as RouterLink, useLocation, useParams, useSearchParams } from "react-router-dom";
import { PublicShell } from "../../components/PublicShell";
import { describeError, errorCodeOf } from "../../errors";
import { useFormatters } from "../../format";
import { ChunksDocument, CitedChunkDocument, DocumentDocument, type CitedChunkQuery, type DocumentRowFragment } from "../../graphql/gql/graphql";
import { describeTransferError, downloadDocument, fetchDocumentBlob, formatBytes } from "../../documents/documentTransfer";
import { RUN_COLORS, RUN_KEYS } from "../../documents/runStatus";
import { useAuthToken } from "../../session/authStore";
import { loginPathFor } from "../../session/returnTo";
import { locatePassage } from "./citedPassage";

// pdf.js comes only with a cited PDF page.
const PdfCitation = lazy(() => import("./PdfCitation"));

type CitedChunk = CitedChunkQuery["chunk"];

const IMAGE_SUFFIXES = ["png", "jpg", "jpeg", "gif", "webp", "bmp", "svg", "ico"];
const TEXT_SUFFIXES = [
  "txt", "md", "mdx", "markdown", "csv", "tsv", "json", "jsonl", "xml", "yaml", "yml", "toml", "ini", "log", "html", "htm",
  "py", "js", "jsx", "ts", "tsx", "java", "c", "h", "cpp", "hpp", "cs", "go", "rs", "rb", "php", "sh", "sql", "css", "scss", "kt", "swift", "lua", "r", "scala",
];

type Kind = "pdf" | "image" | "text" | "chunks";

function kindOf(document: DocumentRowFragment): Kind {
  if (document.size === 0) return "chunks";
  if (document.suffix === "pdf") return "pdf";
  if (IMAGE_SUFFIXES.includes(document.suffix)) return "image";
  if (TEXT_SUFFIXES.includes(document.suffix)) return "text";
  return "chunks";
}

type Preview = { state: "loading" } | { state: "failed"; reason: string } | { state: "url"; url: string } | { state: "text"; text: string };

/** The file's bytes as the preview of its kind: a blob URL for PDFs and pictures, the decoded text otherwise. */
function useFilePreview(document: DocumentRowFragment | undefined, kind: Kind | null): Preview {
  const { t, i18n } = useTranslation();
  const [preview, setPreview] = useState<Preview>({ state: "loading" });
  useEffect(() => {
    if (!document || !kind || kind === "chunks") return;
    let url: string | null = null;
    let cancelled = false;
    setPreview({ state: "loading" });
    fetchDocumentBlob(document.id).then(
      async (blob) => {
        if (cancelled) return;
        if (kind === "text") return setPreview({ state: "text", text: await blob.text() });
        // The stored bytes carry no trustworthy type; the browser needs it to show a PDF or an SVG inline.
        const type = kind === "pdf" ? "application/pdf" : document.suffix === "svg" ? "image/svg+xml" : blob.type;
        url = URL.createObjectURL(new Blob([blob], { type }));
        setPreview({ state: "url", url });
      },
      (error: unknown) => !cancelled && setPreview({ state: "failed", reason: describeTransferError(error, (key) => t(key), (key) => i18n.exists(key), "errors.fileError") }),
    );
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [document, kind, t, i18n]);
  return preview;
}

/** Brings the cited place into view once it is on the page. */
function useScrollIntoView<T extends HTMLElement>(ready: boolean) {
  const element = useRef<T>(null);
  useEffect(() => {
    if (ready) element.current?.scrollIntoView({ block: "center" });
  }, [ready]);
  return element;
}

/** The cited chunk's text, when the view of the document cannot point at it (a picture, HTML source, a reworded chunk). */
function CitedPassageNote({ content }: { content: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="2" mx={{ base: "4", md: "6" }} mt={{ base: "4", md: "6" }} p="4" borderLeftWidth="3px" borderColor="yellow.500" bg="yellow.subtle" rounded="l2" data-testid="viewer-cited-passage">
      <HStack gap="2" fontSize="sm" fontWeight="medium">
        <LuQuote /> {t("documentViewer.citedPassage")}
      </HStack>
      <Text fontSize="sm" whiteSpace="pre-wrap" wordBreak="break-word" maxHeight="40" overflowY="auto">
        {content}
      </Text>
    </Stack>
  );
}

/** The file's text with the cited chunk marked and scrolled to, or the chunk above it when it cannot be placed. */
function HighlightedText({ text, passage }: { text: string; passage: string | null }) {
  const range = useMemo(() => (passage ? locatePassage(text, passage) : null), [text, passage]);
  const mark = useScrollIntoView<HTMLElement>(range !== null);
  return (
    <>
      {passage && !range && <CitedPassageNote content={passage} />}
      <Box as="pre" p={{ base: "4", md: "6" }} fontFamily="mono" fontSize="sm" whiteSpace="pre-wrap" wordBreak="break-word" maxHeight="75vh" overflow="auto" data-testid="viewer-text">
        {range ? (
          <>
            {text.slice(0, range[0])}
            <Box as="mark" ref={mark} bg="yellow.300/50" color="inherit" rounded="l1" boxShadow="0 0 0 2px var(--chakra-colors-yellow-300)" data-testid="viewer-citation">
              {text.slice(range[0], range[1])}
            </Box>
            {text.slice(range[1])}
          </>
        ) : (
          text
        )}
      </Box>
    </>
  );
}

function ParsedChunk({ content, cited }: { content: string; cited: boolean }) {
  const element = useScrollIntoView<HTMLPreElement>(cited);
  return (
    <Box
      ref={element}
      as="pre"
      whiteSpace="pre-wrap"
      fontFamily="body"
      fontSize="sm"
      p="4"
      bg={cited ? "yellow.subtle" : "bg.subtle"}
      rounded="l2"
      borderWidth={cited ? "2px" : "1px"}
      borderColor={cited ? "yellow.500" : undefined}
      data-testid={cited ? "viewer-citation" : undefined}
    >
      {content}
    </Box>
  );
}

function ParsedChunks({ documentId, citedId }: { documentId: string; citedId: string | null }) {
  const { t, i18n } = useTranslation();
  const { data, loading, error } = useQuery(ChunksDocument, { variables: { documentId, pageSize: 0 } });
  if (loading && !data) return <Spinner color="brand.solid" />;
  if (error && !data) return <Text color="fg.error">{describeError(error, i18n)}</Text>;
  const chunks = data?.chunks.items ?? [];
  if (chunks.length === 0) return <Text color="fg.muted">{t("documentViewer.noChunks")}</Text>;
  return (
    <Stack gap="3" data-testid="viewer-chunks">
      {chunks.map((chunk) => (
        <ParsedChunk key={chunk.id} content={chunk.content} cited={chunk.id === citedId} />
      ))}
    </Stack>
  );
}

function Viewer({ document }: { document: DocumentRowFragment }) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const [params] = useSearchParams();
  const kind = kindOf(document);
  const preview = useFilePreview(document, kind);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  // A citation opens the viewer at its place: ?chunk=<id> marks the chunk, ?page=<n> (or the chunk's page) for PDFs.
  const chunkId = params.get("chunk");
  const cited = useQuery(CitedChunkDocument, { variables: { id: chunkId ?? "" }, skip: !chunkId });
  const citedChunk: CitedChunk | null = cited.data?.chunk.documentId === document.id ? cited.data.chunk : null;
  const citationGone = !!chunkId && !cited.loading && !citedChunk;
  const page = Number(params.get("page")) || citedChunk?.page || citedChunk?.positions[0]?.page || 0;
  const [pdfView, setPdfView] = useState<"cited" | "whole">("cited");
  const citedBoxes = citedChunk?.positions ?? [];

  async function download() {
    setDownloadError(null);
    try {
      await downloadDocument(document.id, document.name);
    } catch (error) {
      setDownloadError(describeTransferError(error, (key) => t(key), (key) => i18n.exists(key), "errors.fileError"));
    }
  }

  return (
    <Stack gap="5">
      <Flex gap="4" align={{ base: "stretch", md: "center" }} direction={{ base: "column", md: "row" }} justify="space-between">
        <Stack gap="1.5" minWidth="0">
          <Text as="h1" fontSize="2xl" fontWeight="semibold" letterSpacing="-0.01em" truncate title={document.name} data-testid="viewer-name">
            {document.name}
          </Text>
          <HStack gap="2" fontSize="sm" color="fg.muted" wrap="wrap">
            <Badge colorPalette={RUN_COLORS[document.run] ?? "gray"} variant="subtle" data-testid="viewer-status">
              {t(`kb.run.${RUN_KEYS[document.run] ?? "unstarted"}`)}
            </Badge>
            <Text>{t("kb.list.chunks", { count: document.chunkCount, formatted: format.number(document.chunkCount) })}</Text>
            <Text>· {formatBytes(document.size, format.number)}</Text>
          </HStack>
        </Stack>
        <Stack gap="1" align={{ md: "flex-end" }}>
          <Button variant="outline" onClick={() => void download()} data-testid="viewer-download">
            <LuDownload /> {t("kb.dataset.download")}
          </Button>
          {downloadError && (
            <Text fontSize="sm" color="fg.error">
              {downloadError}
            </Text>
          )}
        </Stack>
      </Flex>

      {citationGone && (
        <Text fontSize="sm" color="fg.muted" data-testid="viewer-citation-gone">
          {t("documentViewer.citationGone")}
        </Text>
      )}

      {kind === "pdf" && citedBoxes.length > 0 && preview.state === "url" && (
        <HStack gap="2">
          {(["cited", "whole"] as const).map((view) => (
            <Button key={view} size="sm" variant={pdfView === view ? "solid" : "outline"} colorPalette={pdfView === view ? "brand" : "gray"} onClick={() => setPdfView(view)} data-testid={`viewer-pdf-${view}-tab`}>
              {view === "cited" ? t("documentViewer.citedPassage") : t("documentViewer.wholeDocument")}
            </Button>
          ))}
        </HStack>
      )}

      <Box bg="bg.panel" borderWidth="1px" rounded="l3" overflow="hidden" data-testid="viewer-preview" data-kind={kind}>
        {kind === "chunks" ? (
          <Stack p={{ base: "4", md: "6" }} gap="4">
            <Text fontSize="sm" color="fg.muted">
              {t("documentViewer.parsedText")}
            </Text>
            <ParsedChunks documentId={document.id} citedId={citedChunk?.id ?? null} />
          </Stack>
        ) : preview.state === "loading" ? (
          <Center py="24">
            <Spinner color="brand.solid" />
          </Center>
        ) : preview.state === "failed" ? (
          <Center py="16" color="fg.error" role="alert">
            {preview.reason}
          </Center>
        ) : preview.state === "text" ? (
          <HighlightedText text={preview.text} passage={citedChunk?.content ?? null} />
        ) : kind === "pdf" && citedBoxes.length > 0 && pdfView === "cited" ? (
          <Suspense
            fallback={
              <Center py="24">
                <Spinner color="brand.solid" />
              </Center>
            }
          >
            <PdfCitation url={preview.url} positions={citedBoxes} />
          </Suspense>
        ) : kind === "pdf" ? (
          <iframe title={document.name} src={`${preview.url}${page > 0 ? `#page=${page}` : ""}`} style={{ width: "100%", height: "80vh", border: 0, display: "block" }} data-testid="viewer-pdf" />
        ) : (
          <>
            {citedChunk && <CitedPassageNote content={citedChunk.content} />}
            <Center p="4" bg="bg.subtle">
              <Image src={preview.url} alt={document.name} maxHeight="80vh" objectFit="contain" data-testid="viewer-image" />
            </Center>
          </>
        )}
      </Box>
    </Stack>
  );
}

export default function DocumentViewerPage() {
  const { t, i18n } = useTranslation();
  const { id = "" } = useParams();
  const location = useLocation();
  const token = useAuthToken();
  const { data, loading, error } = useQuery(DocumentDocument, { variables: { id }, skip: !id });
  const signInNeeded = !token || errorCodeOf(error) === "UNAUTHENTICATED";

  useEffect(() => {
    if (data?.document.name) window.document.title = `${data.document.name} · Cairn`;
  }, [data?.document.name]);

  return (
    <PublicShell>
      {data?.document ? (
        <Viewer document={data.document} />
      ) : loading ? (
        <Center py="24">
          <Spinner color="brand.solid" />
        </Center>
      ) : (
        <Center py="20" flexDirection="column" gap="4" textAlign="center" role="alert" data-testid="viewer-unavailable">
          <Box rounded="full" bg="bg.muted" color="fg.muted" p="4">
            <LuFileText size="28" />
          </Box>
          <Text color="fg.muted" maxWidth="md">
            {signInNeeded ? t("documentViewer.signIn") : error ? describeError(error, i18n) : t("errors.knowledge.documentNotFound")}
          </Text>
          {signInNeeded && (
            <Button asChild colorPalette="brand" size="sm">
              <RouterLink to={loginPathFor(`${location.pathname}${location.search}`)}>
                <LuLogIn /> {t("documentViewer.signInAction")}
              </RouterLink>
            </Button>
          )}
        </Center>
      )}
    </PublicShell>
  );
}
