import { Badge, Box, Button, Center, Flex, HStack, Spinner, Stack, Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { LuDownload, LuFileText, LuLogIn, LuQuote } from "react-icons/lu";
import { Link as RouterLink, useLocation, useParams, useSearchParams } from "react-router-dom";
import { PublicShell } from "../../components/PublicShell";
import { describeError, errorCodeOf } from "../../errors";
import { useFormatters } from "../../format";
import { FilePreview } from "../../components/preview/FilePreview";
import { useFileUrl } from "../../components/preview/useFileUrl";
import { ChunksDocument, CitedChunkDocument, DocumentDocument, DocumentPreviewDocument, type CitedChunkQuery, type DocumentRowFragment, type FilePreviewFragment } from "../../graphql/gql/graphql";
import { describeTransferError, documentDownloadUrl, downloadDocument, formatBytes } from "../../documents/documentTransfer";
import { RUN_COLORS, RUN_KEYS } from "../../documents/runStatus";
import { useAuthToken } from "../../session/authStore";
import { loginPathFor } from "../../session/returnTo";
import { locatePassage } from "./citedPassage";

// pdf.js comes only with a cited PDF page.
const PdfPages = lazy(() => import("../../components/preview/PdfPages"));

type CitedChunk = CitedChunkQuery["chunk"];

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

const spinner = (
  <Center py="24">
    <Spinner color="brand.solid" />
  </Center>
);

type CitedBox = CitedChunk["positions"][number];

/**
 * A PDF opened at a place: the pages a citation points at drawn by pdf.js with its boxes marked, or the whole
 * document in the browser's own viewer (search, zoom, print) at the page asked for.
 */
function PdfDocument({ document, page, citedBoxes }: { document: DocumentRowFragment; page: number; citedBoxes: CitedBox[] }) {
  const { t } = useTranslation();
  const file = useFileUrl(documentDownloadUrl(document.id), document.name);
  const [pdfView, setPdfView] = useState<"cited" | "whole">("cited");
  if (file.state === "loading") return spinner;
  if (file.state === "failed")
    return (
      <Center py="16" color="fg.error" role="alert">
        {file.reason}
      </Center>
    );
  return (
    <>
      {citedBoxes.length > 0 && (
        <HStack gap="2" p="3" borderBottomWidth="1px">
          {(["cited", "whole"] as const).map((view) => (
            <Button key={view} size="sm" variant={pdfView === view ? "solid" : "outline"} colorPalette={pdfView === view ? "brand" : "gray"} onClick={() => setPdfView(view)} data-testid={`viewer-pdf-${view}-tab`}>
              {view === "cited" ? t("documentViewer.citedPassage") : t("documentViewer.wholeDocument")}
            </Button>
          ))}
        </HStack>
      )}
      {citedBoxes.length > 0 && pdfView === "cited" ? (
        <Suspense fallback={spinner}>
          <PdfPages url={file.url} positions={citedBoxes} />
        </Suspense>
      ) : (
        <iframe title={document.name} src={`${file.url}${page > 0 ? `#page=${page}` : ""}`} style={{ width: "100%", height: "80vh", border: 0, display: "block" }} data-testid="viewer-pdf" />
      )}
    </>
  );
}

/** The file rendered (components/preview), or, for a citation in a text, the text with the cited passage marked. */
function RenderedFile({ document, preview, citedChunk, page }: { document: DocumentRowFragment; preview: FilePreviewFragment; citedChunk: CitedChunk | null; page: number }) {
  // a citation or a page asked for opens the PDF at its place; otherwise it is read from the top like any file
  if (preview.kind === "pdf" && (citedChunk || page > 0)) return <PdfDocument document={document} page={page} citedBoxes={citedChunk?.positions ?? []} />;
  const text = preview.kind === "text" ? preview.text : preview.kind === "markdown" ? preview.markdown : null;
  if (citedChunk && text != null) return <HighlightedText text={text} passage={citedChunk.content} />;
  return (
    <>
      {citedChunk && <CitedPassageNote content={citedChunk.content} />}
      <FilePreview preview={preview} downloadUrl={documentDownloadUrl(document.id)} />
    </>
  );
}

function Viewer({ document }: { document: DocumentRowFragment }) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const [params] = useSearchParams();
  // an empty document (chunks added by hand) has no file to show
  const hasFile = document.size > 0;
  const [view, setView] = useState<"preview" | "chunks">(hasFile ? "preview" : "chunks");
  const rendered = useQuery(DocumentPreviewDocument, { variables: { id: document.id }, skip: !hasFile });
  const preview = rendered.data?.documentPreview ?? null;
  const [downloadError, setDownloadError] = useState<string | null>(null);
  // A citation opens the viewer at its place: ?chunk=<id> marks the chunk, ?page=<n> (or the chunk's page) for PDFs.
  const chunkId = params.get("chunk");
  const cited = useQuery(CitedChunkDocument, { variables: { id: chunkId ?? "" }, skip: !chunkId });
  const citedChunk: CitedChunk | null = cited.data?.chunk.documentId === document.id ? cited.data.chunk : null;
  const citationGone = !!chunkId && !cited.loading && !citedChunk;
  const page = Number(params.get("page")) || citedChunk?.page || citedChunk?.positions[0]?.page || 0;

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

      {hasFile && (
        <HStack gap="1" role="tablist" aria-label={t("preview.view.label")}>
          {(["preview", "chunks"] as const).map((each) => (
            <Button key={each} size="sm" role="tab" aria-selected={view === each} variant={view === each ? "subtle" : "ghost"} colorPalette={view === each ? "brand" : "gray"} onClick={() => setView(each)} data-testid={`viewer-view-${each}`}>
              {t(`preview.view.${each}`)}
            </Button>
          ))}
        </HStack>
      )}

      <Box bg="bg.panel" borderWidth="1px" rounded="l3" overflow="hidden" data-testid="viewer-preview" data-kind={view === "chunks" ? "chunks" : preview?.kind}>
        {view === "chunks" ? (
          <Stack p={{ base: "4", md: "6" }} gap="4">
            <ParsedChunks documentId={document.id} citedId={citedChunk?.id ?? null} />
          </Stack>
        ) : preview ? (
          <RenderedFile document={document} preview={preview} citedChunk={citedChunk} page={page} />
        ) : rendered.error ? (
          <Center py="16" color="fg.error" role="alert">
            {describeError(rendered.error, i18n)}
          </Center>
        ) : (
          spinner
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
