import fs from "node:fs";
import { GlobalFonts, createCanvas } from "@napi-rs/canvas";
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun, WidthType } from "docx";
import ExcelJS from "exceljs";
import { PDFDocument as PdfLibDocument } from "pdf-lib";
import PDFDocument from "pdfkit";
import PptxGenJS from "pptxgenjs";
import * as XLSX from "xlsx";
import { TesseractOcr } from "../../models/builtin/tesseract-ocr";
import type { ParserContext } from "../types";

/**
 * Sample files of every format the parsers read, generated in memory (no binary fixtures in the repository).
 * Used by the parser tests, and by pipeline and browser tests that upload them. The libraries that write them are
 * devDependencies: nothing here runs in the server.
 */

const LATIN_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
const CHINESE_FONT = "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc";

/** What the pipeline hands a parser, with the built-in OCR; a test overrides what it looks at. */
export function parserContext(fileName: string, overrides: Partial<ParserContext> = {}): ParserContext {
  return {
    fileName,
    layoutRecognize: true,
    language: "English",
    ocr: new TesseractOcr(),
    signal: new AbortController().signal,
    progress: () => undefined,
    ...overrides,
  };
}

let fontsRegistered = false;
function registerFonts(): void {
  if (fontsRegistered) return;
  fontsRegistered = true;
  if (fs.existsSync(LATIN_FONT)) GlobalFonts.registerFromPath(LATIN_FONT, "Sample Latin");
  if (fs.existsSync(CHINESE_FONT)) GlobalFonts.registerFromPath(CHINESE_FONT, "Sample Chinese");
}

/** Black text on white, one line per entry, as a PNG. */
function textImage(lines: string[], fontFamily: string, fontSize: number): Buffer {
  registerFonts();
  const measure = createCanvas(10, 10).getContext("2d");
  measure.font = `${fontSize}px "${fontFamily}"`;
  const width = Math.ceil(Math.max(...lines.map((line) => measure.measureText(line).width))) + 2 * fontSize;
  const lineHeight = Math.round(fontSize * 1.5);
  const canvas = createCanvas(width, lineHeight * lines.length + fontSize);
  const context = canvas.getContext("2d");
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = "#000000";
  context.font = `${fontSize}px "${fontFamily}"`;
  context.textBaseline = "top";
  lines.forEach((line, index) => context.fillText(line, fontSize, fontSize / 2 + index * lineHeight));
  return canvas.toBuffer("image/png");
}

export const ENGLISH_IMAGE_LINES = ["Retrieval augmented generation", "cites its sources."];
export const CHINESE_IMAGE_TEXT = "简体中文检索增强生成系统";
export const SCANNED_PAGE_LINES = ["Invoice 4711 from Harbour Supplies", "Total due: 250 euros"];

export async function sampleEnglishImage(): Promise<Buffer> {
  return textImage(ENGLISH_IMAGE_LINES, "Sample Latin", 32);
}

export async function sampleChineseImage(): Promise<Buffer> {
  return textImage([CHINESE_IMAGE_TEXT], "Sample Chinese", 32);
}

function pdfkitBuffer(build: (doc: PDFKit.PDFDocument) => void, options: PDFKit.PDFDocumentOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument(options);
    const parts: Buffer[] = [];
    doc.on("data", (part: Buffer) => parts.push(part));
    doc.on("end", () => resolve(Buffer.concat(parts)));
    doc.on("error", reject);
    build(doc);
    doc.end();
  });
}

export const PDF_TEXT = {
  title: "Cairn Sample Report",
  introduction: "Retrieval augmented generation answers questions from a company's own documents and cites the passages it used.",
  method: "Each document is parsed into blocks, the blocks are chunked, and every chunk is embedded and indexed for search.",
  left: ["The left column explains how files are uploaded into a knowledge base.", "Uploads are checked for their file type first."],
  right: ["The right column explains how answers are generated from chunks.", "Every answer names the documents it quotes."],
  footer: "Both columns end above this closing line.",
};

/** Page 1: a title, two headings and paragraphs (one spanning two lines); page 2: a heading over two columns and a closing line. */
export async function samplePdf(): Promise<Buffer> {
  return pdfkitBuffer(
    (doc) => {
      doc.font("Helvetica-Bold").fontSize(24).text(PDF_TEXT.title, 72, 72);
      doc.font("Helvetica-Bold").fontSize(16).text("1. Introduction", 72, 130);
      doc.font("Helvetica").fontSize(11).text(PDF_TEXT.introduction, 72, 160, { width: 300 });
      doc.font("Helvetica-Bold").fontSize(16).text("2. Method", 72, 240);
      doc.font("Helvetica").fontSize(11).text(PDF_TEXT.method, 72, 270, { width: 468 });
      doc.addPage();
      doc.font("Helvetica-Bold").fontSize(16).text("3. Two columns", 72, 72);
      doc.font("Helvetica").fontSize(11);
      doc.text(PDF_TEXT.left[0], 72, 110, { width: 200 });
      doc.text(PDF_TEXT.left[1], 72, 170, { width: 200 });
      doc.text(PDF_TEXT.right[0], 320, 110, { width: 200 });
      doc.text(PDF_TEXT.right[1], 320, 170, { width: 200 });
      doc.text(PDF_TEXT.footer, 72, 260, { width: 468 });
    },
    { size: "LETTER", margin: 72, info: { Title: PDF_TEXT.title } },
  );
}

/** One page that is nothing but a picture of printed English text (no text layer). */
export async function sampleScannedPdf(): Promise<Buffer> {
  const png = textImage(SCANNED_PAGE_LINES, "Sample Latin", 40);
  const pdf = await PdfLibDocument.create();
  const image = await pdf.embedPng(png);
  const page = pdf.addPage([612, 792]);
  const scale = 468 / image.width;
  page.drawImage(image, { x: 72, y: 792 - 72 - image.height * scale, width: 468, height: image.height * scale });
  return Buffer.from(await pdf.save());
}

/** The sample PDF, readable only with the password "secret" (RC4/AES as pdfkit writes it). */
export async function encryptedPdf(): Promise<Buffer> {
  return pdfkitBuffer((doc) => doc.fontSize(12).text("Confidential"), { userPassword: "secret", ownerPassword: "owner", pdfVersion: "1.7" });
}

/** Not a PDF past its first line: the header, then no objects and no cross-reference table. */
export async function corruptPdf(): Promise<Buffer> {
  return Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\nthis file was cut off before its first object\n", "latin1");
}

export const CHINESE_PARAGRAPH = "检索增强生成把文档切成片段，再按问题找回最相关的片段。";

export async function sampleDocx(): Promise<Buffer> {
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)], width: { size: 3000, type: WidthType.DXA } });
  const document = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: "Onboarding guide", heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ children: [new TextRun("New colleagues read this guide in their "), new TextRun({ text: "first week", bold: true }), new TextRun(".")] }),
          new Paragraph({ text: "Checklist", heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: "Collect the laptop", bullet: { level: 0 } }),
          new Paragraph({ text: "Install the password manager", bullet: { level: 1 } }),
          new Paragraph({ text: "Meet the team", bullet: { level: 0 } }),
          new Paragraph({ text: "Contacts", heading: HeadingLevel.HEADING_2 }),
          new Table({
            rows: [
              new TableRow({ tableHeader: true, children: [cell("Role"), cell("Name")] }),
              new TableRow({ children: [cell("Manager"), cell("Ada Lovelace")] }),
              new TableRow({ children: [cell("Buddy"), cell("Alan Turing")] }),
            ],
          }),
          new Paragraph(CHINESE_PARAGRAPH),
        ],
      },
    ],
  });
  return Packer.toBuffer(document);
}

export const XLSX_SALES = [
  ["Product", "Quantity", "Unit price", "Total", "Ordered"],
  ["Lamp", 2, 45, 90, "2024-03-01"],
  ["Desk", 1, 320, 320, "2024-03-15"],
] as const;

/** Two sheets: "Sales" (a header row after an empty first row, a formula column, dates) and "Notes". */
export async function sampleXlsx(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sales = workbook.addWorksheet("Sales");
  XLSX_SALES.forEach((row, index) => {
    const line = index + 2;
    if (index === 0) sales.getRow(line).values = [...row];
    else {
      const [product, quantity, price, total, ordered] = row;
      sales.getRow(line).values = [product, quantity, price, { formula: `B${line}*C${line}`, result: total }, new Date(`${ordered}T00:00:00Z`)];
    }
  });
  const notes = workbook.addWorksheet("Notes");
  notes.addRow(["Topic", "Note"]);
  notes.addRow(["Delivery", "Ships within 3 days"]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A BIFF8 (Excel 97–2003) workbook with two sheets; "Cities" has a date cell (2024-05-07). */
export async function sampleXls(): Promise<Buffer> {
  const workbook = XLSX.utils.book_new();
  const cities = XLSX.utils.aoa_to_sheet([
    ["City", "Population", "Updated"],
    ["Hamburg", 1_850_000, 0],
    ["Bremen", 570_000, "unknown"],
  ]);
  // a serial day number with a date format is how Excel stores a date, whatever the writer's time zone
  cities.C2 = { t: "n", v: 45419, z: "yyyy-mm-dd" };
  XLSX.utils.book_append_sheet(workbook, cities, "Cities");
  XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet([["Key", "Value"], ["currency", "EUR"]]), "Settings");
  return XLSX.write(workbook, { type: "buffer", bookType: "biff8" }) as Buffer;
}

/** Semicolon-separated (as spreadsheet programs write it in many European locales), with quoting and Chinese. */
export async function sampleCsv(): Promise<Buffer> {
  return Buffer.from('Name;City;Comment\n"Smith, John";Berlin;"He said ""hello"""\n王芳;北京;检索增强\n\nLi Lei;Shanghai;\n');
}

export const PPTX_TITLES = ["Cairn overview", "Ingestion pipeline", "Results"];

/** Three slides with a title placeholder each, bullets on the second, a table on the third, and speaker notes. */
export async function samplePptx(): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.defineSlideMaster({
    title: "TITLED",
    objects: [{ placeholder: { options: { name: "title", type: "title", x: 0.5, y: 0.3, w: 9, h: 1 }, text: "" } }],
  });
  const first = pptx.addSlide({ masterName: "TITLED" });
  first.addText(PPTX_TITLES[0], { placeholder: "title" });
  first.addText("Answers questions from your own documents.", { x: 0.5, y: 1.5, w: 9, h: 1 });
  first.addNotes("Welcome everyone and introduce the product.");
  const second = pptx.addSlide({ masterName: "TITLED" });
  second.addText(PPTX_TITLES[1], { placeholder: "title" });
  second.addText(
    [
      { text: "Parse the file", options: { bullet: true, breakLine: true } },
      { text: "Detect the layout", options: { bullet: true, indentLevel: 1, breakLine: true } },
      { text: "Chunk and embed", options: { bullet: true } },
    ],
    { x: 0.5, y: 1.5, w: 9, h: 3 },
  );
  second.addNotes("Mention that OCR runs offline.");
  const third = pptx.addSlide({ masterName: "TITLED" });
  third.addText(PPTX_TITLES[2], { placeholder: "title" });
  third.addTable(
    [
      [{ text: "Metric" }, { text: "Value" }],
      [{ text: "Recall" }, { text: "0.92" }],
    ],
    { x: 0.5, y: 1.5, w: 6 },
  );
  third.addNotes("Numbers are from the March evaluation.");
  return (await pptx.write({ outputType: "nodebuffer" })) as Buffer;
}

export async function sampleHtml(): Promise<Buffer> {
  return Buffer.from(`<!DOCTYPE html>
<html><head><title>Release notes</title><style>body { color: red }</style><script>var tracking = "do not index";</script></head>
<body>
<nav><a href="/">Home</a> <a href="/docs">Docs</a></nav>
<h1>Release notes</h1>
<p>Version 2.0 brings   faster <b>search</b> and a new
parser.</p>
<h2>Changes</h2>
<ul>
  <li>Faster search
    <ul><li>Index built in the background</li></ul>
  </li>
  <li>New <i>PDF</i> parser</li>
</ul>
<ol><li>Upgrade the server</li><li>Rebuild the index</li></ol>
<pre><code class="language-bash">npm install
npm run build</code></pre>
<table><caption>Supported formats</caption>
  <thead><tr><th>Format</th><th>Parser</th></tr></thead>
  <tbody><tr><td>PDF</td><td>pdf.js</td></tr><tr><td>Word</td><td>mammoth</td></tr></tbody>
</table>
<div>Questions? Write to <a href="mailto:help@example.com">help@example.com</a>.<br>We answer within a day.</div>
<noscript>Enable JavaScript</noscript>
</body></html>
`);
}

export async function sampleMarkdown(): Promise<Buffer> {
  return Buffer.from(`# Deployment guide

Cairn runs as **one process** with an embedded database.

## Requirements

- Node.js 20
  - npm 11
- 2 GB of memory

1. Install
2. Configure

\`\`\`sh
npm start
\`\`\`

| Variable | Meaning |
| --- | --- |
| \`DATA_DIR\` | Where files are kept |
| \`PORT\` | HTTP port |

> Back up the data directory before upgrading.
`);
}

/** Quoted-printable, as mail clients write it: bytes outside printable ASCII as =XX, lines of at most 76 characters with soft breaks. */
function quotedPrintable(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => {
      const units = [...Buffer.from(line, "utf8")].map((byte) => (byte >= 32 && byte <= 126 && byte !== 61 ? String.fromCharCode(byte) : `=${byte.toString(16).toUpperCase().padStart(2, "0")}`));
      const parts = [""];
      for (const unit of units) {
        if (parts[parts.length - 1].length + unit.length > 75) parts.push("");
        parts[parts.length - 1] += unit;
      }
      return parts.join("=\r\n");
    })
    .join("\r\n");
}

export const EML_SUBJECT = "会议通知";
export const EML_BODY = "各位同事：\n\n周五下午三点在三楼会议室讨论检索增强生成的上线计划。\n\nPlease bring your laptop.";
export const EML_ATTACHMENT = "Agenda\n\n1. Launch plan\n2. Questions";

/** A multipart message: RFC 2047 subject and sender name, a quoted-printable body and a text attachment. */
export async function sampleEml(): Promise<Buffer> {
  const encodedWord = (text: string) => `=?UTF-8?B?${Buffer.from(text).toString("base64")}?=`;
  const message = [
    `From: ${encodedWord("张伟")} <zhang.wei@example.com>`,
    "To: Team <team@example.com>",
    `Subject: ${encodedWord(EML_SUBJECT)}`,
    "Date: Mon, 03 Mar 2025 09:30:00 +0800",
    "Message-ID: <sample-1@example.com>",
    "MIME-Version: 1.0",
    'Content-Type: multipart/mixed; boundary="sample-boundary"',
    "",
    "--sample-boundary",
    "Content-Type: text/plain; charset=UTF-8",
    "Content-Transfer-Encoding: quoted-printable",
    "",
    quotedPrintable(EML_BODY),
    "--sample-boundary",
    'Content-Type: text/plain; charset=UTF-8; name="agenda.txt"',
    'Content-Disposition: attachment; filename="agenda.txt"',
    "Content-Transfer-Encoding: base64",
    "",
    Buffer.from(EML_ATTACHMENT).toString("base64"),
    "--sample-boundary--",
    "",
  ];
  return Buffer.from(message.join("\r\n"));
}

export async function sampleJson(): Promise<Buffer> {
  return Buffer.from(
    JSON.stringify(
      [
        { id: 1, name: "Lamp", tags: ["light", "desk"], supplier: { name: "Harbour Supplies", country: "DE" } },
        { id: 2, name: "Desk", tags: [], supplier: { name: "北方家具", country: "CN" }, discontinued: true },
      ],
      null,
      2,
    ),
  );
}
