import { Box, Center, Spinner, Stack, Text } from "@chakra-ui/react";
import { getDocument, GlobalWorkerOptions, type PDFDocumentProxy } from "pdfjs-dist";
import workerUrl from "pdfjs-dist/build/pdf.worker.min.mjs?url";
import { useEffect, useMemo, useRef, useState } from "react";
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

interface PageProps {
  pdf: PDFDocumentProxy;
  pageNumber: number;
  boxes: PagePosition[];
  width: number;
  scrollTo: boolean;
}

function CitedPage({ pdf, pageNumber, boxes, width, scrollTo }: PageProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [layout, setLayout] = useState<{ width: number; height: number; boxes: { left: number; top: number; width: number; height: number }[] } | null>(null);

  useEffect(() => {
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
  }, [pdf, pageNumber, boxes, width]);

  const firstBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (layout && scrollTo) firstBox.current?.scrollIntoView({ block: "center" });
  }, [layout, scrollTo]);

  return (
    <Box position="relative" mx="auto" width={`${width}px`} maxWidth="full" boxShadow="md" bg="white" data-testid="viewer-pdf-page" data-page={pageNumber}>
      <canvas ref={canvas} style={{ display: "block", width: layout ? `${layout.width}px` : "100%", height: layout ? `${layout.height}px` : undefined }} />
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

/** The pages a chunk was cut from, drawn by pdf.js, with its boxes marked. */
export default function PdfCitation({ url, positions }: { url: string; positions: PagePosition[] }) {
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

  const pages = [...new Set(positions.map((position) => position.page))].sort((a, b) => a - b);
  const boxesByPage = useMemo(() => {
    const byPage = new Map<number, PagePosition[]>();
    for (const position of positions) byPage.set(position.page, [...(byPage.get(position.page) ?? []), position]);
    return byPage;
  }, [positions]);

  return (
    <Box ref={container} p={{ base: "2", md: "6" }} bg="bg.muted" maxHeight="80vh" overflow="auto" data-testid="viewer-pdf-cited">
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
              <CitedPage pdf={pdf} pageNumber={pageNumber} boxes={boxesByPage.get(pageNumber) ?? []} width={width} scrollTo={index === 0} />
            </Stack>
          ))}
        </Stack>
      )}
    </Box>
  );
}

