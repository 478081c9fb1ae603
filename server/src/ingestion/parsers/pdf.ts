import { logMessage, type LogMessage } from "../parse-log";
import path from "node:path";
import type { PDFDocumentProxy, PDFPageProxy } from "pdfjs-dist";
import type { Block, BlockPosition, FileParser, ParserContext } from "../types";
import { ParseError } from "../types";
import { importEsm } from "./load-esm";
import { PARSE_LIMITS } from "./limits";
import { readText } from "./ocr";
import { paragraphsOf } from "./plain-text";
import { encodePng, type PngChannels } from "./png";

type PdfJs = typeof import("pdfjs-dist");

let loaded: Promise<PdfJs> | undefined;

function loadPdfJs(): Promise<PdfJs> {
  loaded ??= (async () => {
    // pdf.js looks for its worker's message handler on globalThis and then runs it in this thread, instead of
    // importing the worker module itself (which it does relative to its own URL, and noisily)
    const worker = await importEsm("pdfjs-dist/legacy/build/pdf.worker.mjs");
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    return importEsm<PdfJs>("pdfjs-dist/legacy/build/pdf.mjs");
  })();
  loaded.catch(() => (loaded = undefined));
  return loaded;
}

const PDFJS_FOLDER = path.dirname(require.resolve("pdfjs-dist/package.json"));

interface Box {
  x0: number;
  x1: number;
  top: number;
  bottom: number;
}

interface Line extends Box {
  text: string;
  size: number;
  baseline: number;
}

/** Lines in reading order, cut into runs of lines that may form one paragraph. */
interface TextGroup extends Box {
  page: number;
  size: number;
  lines: string[];
  bullet: boolean;
}

const CJK = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]/;
const BULLET = /^([•◦▪▫●○■□‣⁃∙·*-]|\(?\d{1,2}[.)]|\(?[a-z][.)])\s+/;

/** Joins wrapped lines: no space between Chinese characters, and a word hyphenated at a line end is rejoined. */
function joinLines(lines: string[]): string {
  return lines.reduce((text, line) => {
    if (!text) return line;
    if (/[a-z]-$/i.test(text) && /^[a-z]/.test(line)) return text.slice(0, -1) + line;
    return CJK.test(text.at(-1) ?? "") && CJK.test(line[0] ?? "") ? text + line : `${text} ${line}`;
  }, "");
}

const union = (boxes: Box[]): Box => ({
  x0: Math.min(...boxes.map((box) => box.x0)),
  x1: Math.max(...boxes.map((box) => box.x1)),
  top: Math.min(...boxes.map((box) => box.top)),
  bottom: Math.max(...boxes.map((box) => box.bottom)),
});

/** Text items in content order become lines; an item far from the previous one (another column) starts a new line. */
function linesOf(items: { str: string; transform: number[]; width: number }[], pageTop: number, pageLeft: number): Line[] {
  const lines: Line[] = [];
  for (const item of items) {
    if (!item.str.trim()) continue;
    const [a, b, c, d, e, f] = item.transform;
    const size = Math.hypot(c, d) || Math.hypot(a, b) || 1;
    const baseline = pageTop - f;
    const x0 = e - pageLeft;
    const x1 = x0 + item.width;
    const last = lines.at(-1);
    if (last && Math.abs(last.baseline - baseline) < 0.5 * Math.min(size, last.size) && x0 > last.x0 && x0 - last.x1 < 1.0 * size) {
      const gap = x0 - last.x1 > 0.15 * size && !last.text.endsWith(" ") && !item.str.startsWith(" ");
      last.text += (gap ? " " : "") + item.str;
      last.x1 = Math.max(last.x1, x1);
      last.size = Math.max(last.size, size);
    } else {
      lines.push({ text: item.str, size, baseline, x0, x1, top: baseline - 0.8 * size, bottom: baseline + 0.2 * size });
    }
  }
  return lines.map((line) => ({ ...line, text: line.text.replace(/\s+/g, " ").trim() }));
}

/**
 * Reading order of a page. Lines side by side with a gap of at least an em between them suggest columns; the gutter
 * is where most such pairs leave a gap, and its edges are those of the pairs that span it. Lines reaching into the
 * gutter (titles, a closing paragraph) cut the page into bands, and each band is read left column first.
 */
function readingOrder(lines: Line[], pageWidth: number): Line[] {
  const byTop = [...lines].sort((first, second) => first.top - second.top || first.x0 - second.x0);
  const pairs: [number, number][] = [];
  for (const left of byTop) {
    for (const right of byTop) {
      if (left.x1 + left.size <= right.x0 && right.top < left.bottom && left.top < right.bottom) pairs.push([left.x1, right.x0]);
    }
  }
  let across: [number, number][] = [];
  for (let x = pageWidth * 0.25; x <= pageWidth * 0.75; x += 2) {
    const spanning = pairs.filter(([leftEdge, rightEdge]) => leftEdge <= x && x <= rightEdge);
    if (spanning.length > across.length) across = spanning;
  }
  if (across.length < 2) return byTop;
  const leftEdge = Math.max(...across.map(([edge]) => edge));
  const rightEdge = Math.min(...across.map(([, edge]) => edge));
  const ordered: Line[] = [];
  let left: Line[] = [];
  let right: Line[] = [];
  for (const line of byTop) {
    if (line.x1 <= leftEdge + 0.5 * line.size) left.push(line);
    else if (line.x0 >= rightEdge - 0.5 * line.size) right.push(line);
    else {
      ordered.push(...left, ...right, line);
      left = [];
      right = [];
    }
  }
  return [...ordered, ...left, ...right];
}

/** Consecutive lines of one size, close below each other in the same column, form a group; a bullet starts a new one. */
function groupsOf(lines: Line[], page: number): TextGroup[] {
  const groups: TextGroup[] = [];
  let previous: Line | undefined;
  for (const line of lines) {
    const bullet = BULLET.test(line.text);
    const group = groups.at(-1);
    const continues =
      group &&
      previous &&
      !bullet &&
      Math.abs(line.size - previous.size) < 0.5 &&
      line.top >= previous.top &&
      line.top - previous.bottom < 0.5 * line.size &&
      line.x0 < previous.x1 &&
      previous.x0 < line.x1;
    if (continues) {
      group.lines.push(line.text);
      Object.assign(group, union([group, line]));
    } else {
      groups.push({ page, size: line.size, lines: [line.text], bullet, x0: line.x0, x1: line.x1, top: line.top, bottom: line.bottom });
    }
    previous = line;
  }
  return groups;
}

/** Headings are the groups set larger than the body text (the size most characters have), ranked by size. */
function blocksOf(groups: TextGroup[]): Block[] {
  const charactersBySize = new Map<number, number>();
  for (const group of groups) {
    const size = Math.round(group.size * 2) / 2;
    charactersBySize.set(size, (charactersBySize.get(size) ?? 0) + group.lines.join("").length);
  }
  const bodySize = [...charactersBySize.entries()].sort((first, second) => second[1] - first[1])[0]?.[0] ?? 0;
  const isHeading = (group: TextGroup) => group.size > bodySize * 1.15 && group.lines.length <= 3 && joinLines(group.lines).length <= 200;
  const headingSizes = [...new Set(groups.filter(isHeading).map((group) => Math.round(group.size * 2) / 2))].sort((first, second) => second - first);
  return groups.map((group): Block => {
    const text = joinLines(group.lines);
    const positions: BlockPosition[] = [{ page: group.page, x0: group.x0, x1: group.x1, top: group.top, bottom: group.bottom }];
    if (isHeading(group)) {
      return { kind: "heading", level: Math.min(6, headingSizes.indexOf(Math.round(group.size * 2) / 2) + 1), text, page: group.page, positions };
    }
    if (group.bullet) return { kind: "listItem", depth: 0, text: text.replace(BULLET, (marker, symbol: string) => (/\w/.test(symbol) ? marker : "")), page: group.page, positions };
    return { kind: "paragraph", text, page: group.page, positions };
  });
}

/** Decoded image data as pdf.js hands it over (ImageKind: 1 = 1 bit grey, 2 = RGB, 3 = RGBA). */
interface PdfImage {
  width: number;
  height: number;
  kind: number;
  data: Uint8ClampedArray;
}

function imagePng(image: PdfImage): Buffer | null {
  if (!image?.data || image.width < 16 || image.height < 16) return null;
  if (image.kind === 2 || image.kind === 3) return encodePng(image.width, image.height, image.data, (image.kind === 2 ? 3 : 4) as PngChannels);
  if (image.kind !== 1) return null;
  const rowBytes = (image.width + 7) >> 3;
  const grey = new Uint8Array(image.width * image.height);
  for (let y = 0; y < image.height; y += 1) {
    for (let x = 0; x < image.width; x += 1) grey[y * image.width + x] = image.data[y * rowBytes + (x >> 3)] & (0x80 >> (x & 7)) ? 255 : 0;
  }
  return encodePng(image.width, image.height, grey, 1);
}

type Matrix = [number, number, number, number, number, number];

const multiply = (m: Matrix, n: number[]): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];

/** The page's pictures as PNGs, with where each is painted (the unit square under the current transform). */
async function pageImages(page: PDFPageProxy, pdfjs: PdfJs, view: number[]): Promise<{ png: Buffer; box: Box }[]> {
  const { OPS } = pdfjs;
  const operators = await page.getOperatorList();
  const images: { png: Buffer; box: Box }[] = [];
  const stack: Matrix[] = [];
  let matrix: Matrix = [1, 0, 0, 1, 0, 0];
  for (const [index, operator] of operators.fnArray.entries()) {
    const args = operators.argsArray[index];
    if (operator === OPS.save) stack.push(matrix);
    else if (operator === OPS.restore) matrix = stack.pop() ?? matrix;
    else if (operator === OPS.transform) matrix = multiply(matrix, args);
    else if (operator === OPS.paintFormXObjectBegin) {
      stack.push(matrix);
      if (Array.isArray(args[0])) matrix = multiply(matrix, args[0]);
    } else if (operator === OPS.paintFormXObjectEnd) matrix = stack.pop() ?? matrix;
    else if (operator === OPS.paintImageXObject || operator === OPS.paintInlineImageXObject) {
      const image: PdfImage =
        operator === OPS.paintInlineImageXObject
          ? args[0]
          : await new Promise((resolve) => (String(args[0]).startsWith("g_") ? page.commonObjs : page.objs).get(args[0], resolve));
      const png = imagePng(image);
      if (!png) continue;
      const corners = [[0, 0], [1, 0], [0, 1], [1, 1]].map(([u, v]) => [matrix[0] * u + matrix[2] * v + matrix[4], matrix[1] * u + matrix[3] * v + matrix[5]]);
      const xs = corners.map(([x]) => x - view[0]);
      const ys = corners.map(([, y]) => view[3] - y);
      images.push({ png, box: { x0: Math.min(...xs), x1: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) } });
    }
  }
  return images;
}

/** The pages to read: the union of the 1-based inclusive ranges, within the document and the page limit. */
function selectedPages(ranges: [number, number][] | undefined, pageCount: number): number[] {
  const last = Math.min(pageCount, PARSE_LIMITS.pdfPages);
  if (!ranges) return Array.from({ length: last }, (_, index) => index + 1);
  const pages = new Set<number>();
  for (const [from, to] of ranges) {
    for (let page = Math.max(1, from); page <= Math.min(last, to); page += 1) pages.add(page);
  }
  return [...pages].sort((first, second) => first - second);
}

async function openDocument(pdfjs: PdfJs, data: Buffer): Promise<PDFDocumentProxy> {
  const task = pdfjs.getDocument({
    data: new Uint8Array(data),
    cMapUrl: `${PDFJS_FOLDER}/cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${PDFJS_FOLDER}/standard_fonts/`,
    isEvalSupported: false,
    // pictures larger than this are not decoded (a page's scan is far smaller)
    maxImageSize: PARSE_LIMITS.imagePixels,
    isOffscreenCanvasSupported: false,
    disableFontFace: true,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  });
  try {
    return await task.promise;
  } catch (error) {
    await task.destroy();
    const { name, message } = error as Error;
    if (name === "PasswordException") throw ParseError.because("errors.parsing.pdfEncrypted");
    throw ParseError.because("errors.parsing.pdfDamaged", { reason: message });
  }
}

/** A page without a text layer (a scan), read by OCR of its pictures. */
async function scannedPageBlocks(page: PDFPageProxy, pdfjs: PdfJs, view: number[], pageNumber: number, context: ParserContext): Promise<Block[]> {
  const blocks: Block[] = [];
  for (const { png, box } of await pageImages(page, pdfjs, view)) {
    const text = await readText({ data: png, mimeType: "image/png" }, context);
    for (const paragraph of paragraphsOf(text)) {
      blocks.push({ kind: "paragraph", text: joinLines(paragraph.split("\n")), page: pageNumber, positions: [{ page: pageNumber, ...box }] });
    }
  }
  return blocks;
}

/** PDF (pdf.js): text with its positions in reading order, headings by font size, scanned pages by OCR. */
export const pdfParser: FileParser = {
  name: "pdf",
  extensions: ["pdf"],
  async parse(data, context) {
    const pdfjs = await loadPdfJs();
    const document = await openDocument(pdfjs, data);
    try {
      const info = (await document.getMetadata().catch(() => null))?.info as { Title?: unknown } | undefined;
      const title = typeof info?.Title === "string" && info.Title.trim() ? info.Title.trim() : undefined;
      const pages = selectedPages(context.pages, document.numPages);
      const groups: TextGroup[] = [];
      const ocrBlocks = new Map<number, Block[]>();
      const notes: LogMessage[] = [];
      if (document.numPages > PARSE_LIMITS.pdfPages) notes.push(logMessage("parseLog.pdfPagesLimited", { pages: document.numPages, limit: PARSE_LIMITS.pdfPages }));
      for (const [index, pageNumber] of pages.entries()) {
        context.signal.throwIfAborted();
        let page: PDFPageProxy;
        let items: { str: string; transform: number[]; width: number }[];
        try {
          page = await document.getPage(pageNumber);
          items = (await page.getTextContent()).items.filter((item) => "str" in item);
        } catch (error) {
          throw ParseError.because("errors.parsing.pdfPageDamaged", { page: pageNumber, reason: (error as Error).message });
        }
        const view = page.view;
        const lines = linesOf(items, view[3], view[0]);
        if (lines.length > 0) groups.push(...groupsOf(readingOrder(lines, view[2] - view[0]), pageNumber));
        else if (context.layoutRecognize) {
          ocrBlocks.set(pageNumber, await scannedPageBlocks(page, pdfjs, view, pageNumber, context));
          notes.push(logMessage("parseLog.pageOcr", { page: pageNumber }));
        } else notes.push(logMessage("parseLog.pageNoText", { page: pageNumber }));
        page.cleanup();
        context.progress((index + 1) / pages.length, logMessage("parseLog.page", { page: pageNumber, pages: document.numPages }));
      }
      const textBlocks = blocksOf(groups);
      const blocks = pages.flatMap((pageNumber) => ocrBlocks.get(pageNumber) ?? textBlocks.filter((block) => block.page === pageNumber));
      return { blocks, pageCount: document.numPages, title, notes };
    } finally {
      await document.destroy();
    }
  },
};
