import { Box, Center, Spinner, Stack, Text } from "@chakra-ui/react";
import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy } from "pdfjs-dist";
import workerUrl from "pdfjs-dist/build/pdf.worker.min.mjs?url";
import { useEffect, useMemo, useRef, useState, type RefObject } from "react";
import { useTranslation } from "react-i18next";

GlobalWorkerOptions.workerSrc = workerUrl;

/** A box of a chunk as the parser recorded it: PDF points from the page's top-left corner (RAGFlow's positions). */
export interface PagePosition {
  page: number;
  x0: number;
  x1: number;
  top: number;
  bottom: number;
}

/** Widest a page is drawn, in CSS pixels: a readable page on a wide screen. */
const MAX_PAGE_WIDTH = 900;

/** Pages of a whole document that are drawn; a longer one says so (its download has them all). */
const MAX_PAGES = 300;

interface PageProps {
  pdf: PDFDocumentProxy;
  pageNumber: number;
  boxes: PagePosition[];
  width: number;
  scrollTo: boolean;
  /** Drawn only once it comes near the view: a long document is not drawn whole up front. */
  lazy: boolean;
  testId: string;
}

/** Whether the element is within a screen or two of the view (always, once it has been). */
function useNearView(element: RefObject<HTMLElement | null>, enabled: boolean): boolean {
  const [near, setNear] = useState(!enabled);
  useEffect(() => {
    if (!enabled || near || !element.current) return;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && setNear(true), { rootMargin: "1200px 0px" });
    observer.observe(element.current);
    return () => observer.disconnect();
  }, [element, enabled, near]);
  return near;
}

function PdfPage({ pdf, pageNumber, boxes, width, scrollTo, lazy, testId }: PageProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const near = useNearView(frame, lazy);
  const [layout, setLayout] = useState<{ width: number; height: number; boxes: { left: number; top: number; width: number; height: number }[] } | null>(null);

  useEffect(() => {
    if (!near) return;
    let cancelled = false;
    let task: { cancel(): void } | null = null;
    void pdf.getPage(pageNumber).then(async (page) => {
      if (cancelled || !canvas.current) return;
      const natural = page.getViewport({ scale: 1 });
      const viewport = page.getViewport({ scale: width / natural.width });
      const ratio = window.devicePixelRatio || 1;
      canvas.current.width = Math.floor(viewport.width * ratio);
      canvas.current.height = Math.floor(viewport.height * ratio);
      const context = canvas.current.getContext("2d");
      if (!context) return;
      const render = page.render({ canvasContext: context, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] });
      task = render;
      await render.promise.catch(() => undefined);
      if (cancelled) return;
      // Back from the parser's top-left page coordinates to PDF user space, then through the viewport (which knows the rotation).
      const [viewLeft, , , viewTop] = page.view;
      setLayout({
        width: viewport.width,
        height: viewport.height,
        boxes: boxes.map((box) => {
          const [x1, y1, x2, y2] = viewport.convertToViewportRectangle([box.x0 + viewLeft, viewTop - box.top, box.x1 + viewLeft, viewTop - box.bottom]);
          return { left: Math.min(x1, x2), top: Math.min(y1, y2), width: Math.abs(x2 - x1), height: Math.abs(y2 - y1) };
        }),
      });
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [pdf, pageNumber, boxes, width, near]);

  const firstBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (layout && scrollTo) firstBox.current?.scrollIntoView({ block: "center" });
  }, [layout, scrollTo]);

  return (
    <Box ref={frame} position="relative" mx="auto" width={`${width}px`} maxWidth="full" boxShadow="md" bg="white" data-testid={testId} data-page={pageNumber}>
      {/* an A4 page's height until the page is drawn, so that the pages below sit about where they will */}
      <canvas ref={canvas} style={{ display: "block", width: layout ? `${layout.width}px` : "100%", height: layout ? `${layout.height}px` : `${Math.round(width * 1.414)}px` }} />
      {layout?.boxes.map((box, index) => (
        <Box
          key={index}
          ref={index === 0 ? firstBox : undefined}
          position="absolute"
          style={{ left: box.left - 3, top: box.top - 3, width: box.width + 6, height: box.height + 6 }}
          bg="yellow.300/35"
          borderWidth="2px"
          borderColor="yellow.500"
          rounded="l1"
          pointerEvents="none"
          data-testid="viewer-citation-box"
        />
      ))}
    </Box>
  );
}

/**
 * A PDF drawn by pdf.js: with `positions`, only the pages a chunk was cut from, its boxes marked (the document
 * viewer's citation); without, every page, each drawn as it comes into view (the file's preview).
 */
export default function PdfPages({ url, positions }: { url: string; positions?: PagePosition[] }) {
  const { t } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [failed, setFailed] = useState(false);
  const [width, setWidth] = useState(0);

  useEffect(() => {
    const task = getDocument({ url, isEvalSupported: false });
    task.promise.then(setPdf, () => setFailed(true));
    return () => void task.destroy();
  }, [url]);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const measure = () => setWidth(Math.min(MAX_PAGE_WIDTH, element.clientWidth));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const cited = positions !== undefined;
  const pages = cited ? [...new Set(positions.map((position) => position.page))].sort((a, b) => a - b) : Array.from({ length: Math.min(pdf?.numPages ?? 0, MAX_PAGES) }, (_, index) => index + 1);
  const boxesByPage = useMemo(() => {
    const byPage = new Map<number, PagePosition[]>();
    for (const position of positions ?? []) byPage.set(position.page, [...(byPage.get(position.page) ?? []), position]);
    return byPage;
  }, [positions]);

  return (
    <Box ref={container} p={{ base: "2", md: "6" }} bg="bg.muted" maxHeight="80vh" overflow="auto" data-testid={cited ? "viewer-pdf-cited" : "preview-pdf"} data-pages={pdf?.numPages}>
      {failed ? (
        <Center py="16" color="fg.error" role="alert">
          {t("errors.fileError")}
        </Center>
      ) : !pdf || width === 0 ? (
        <Center py="24">
          <Spinner color="brand.solid" />
        </Center>
      ) : (
        <Stack gap="6">
          {pages.map((pageNumber, index) => (
            <Stack key={pageNumber} gap="2">
              <Text fontSize="xs" color="fg.muted" textAlign="center">
                {t("retrievalTest.page", { page: pageNumber })}
              </Text>
              <PdfPage pdf={pdf} pageNumber={pageNumber} boxes={boxesByPage.get(pageNumber) ?? []} width={width} scrollTo={cited && index === 0} lazy={!cited} testId={cited ? "viewer-pdf-page" : "preview-pdf-page"} />
            </Stack>
          ))}
          {!cited && pdf.numPages > MAX_PAGES && (
            <Text fontSize="sm" color="fg.muted" textAlign="center" data-testid="preview-truncated">
              {t("preview.truncated")}
            </Text>
          )}
        </Stack>
      )}
    </Box>
  );
}

