// The hostile-input corpus: files made to break a parser, generated here so that nothing binary is committed.
// Each entry says what it attacks and how it must end: "failed" (a document that failed with a reason in its log),
// "done" (a legitimate, if odd, file that is read) or "refused" (the upload itself is refused with a message). The hostile-input test and `npm run bench:hostile` both use it.
"use strict";

const zlib = require("node:zlib");
const MB = 1024 * 1024;

/** Deterministic noise, so that a failure can be reproduced from the same bytes. */
function noise(length, seed = 7) {
  const bytes = Buffer.alloc(length);
  let state = seed;
  for (let i = 0; i < length; i += 1) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    bytes[i] = state >>> 16;
  }
  return bytes;
}

// ---- zip containers ---------------------------------------------------------------------------------------

/** Raw deflate of `head`, then `fill` repeated `times`, then `tail`, without holding the expanded bytes. */
function deflateRepeated(head, fill, times, tail) {
  return new Promise((resolve, reject) => {
    const deflate = zlib.createDeflateRaw({ level: 9 });
    const parts = [];
    let crc = zlib.crc32(head);
    deflate.on("data", (chunk) => parts.push(chunk));
    deflate.on("error", reject);
    deflate.on("end", () => resolve({ compressed: Buffer.concat(parts), size: head.length + fill.length * times + tail.length, crc: zlib.crc32(tail, crc) }));
    deflate.write(head);
    let written = 0;
    const pump = () => {
      while (written < times) {
        written += 1;
        crc = zlib.crc32(fill, crc);
        if (!deflate.write(fill)) return deflate.once("drain", pump);
      }
      deflate.end(tail);
    };
    pump();
  });
}

/** A zip of the given entries ({name, data} stored deflated, or {name, compressed, size, crc} already deflated). */
function zip(entries, { declaredSize } = {}) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const compressed = entry.compressed ?? zlib.deflateRawSync(entry.data);
    const size = entry.size ?? entry.data.length;
    const crc = entry.crc ?? zlib.crc32(entry.data);
    const stated = declaredSize ?? size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(stated, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(stated, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    centrals.push(central, name);
    offset += 30 + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const text = (name, value) => ({ name, data: Buffer.from(value) });
const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

function docxParts(documentXml) {
  return [
    text("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'),
    text("_rels/.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'),
    typeof documentXml === "string" ? text("word/document.xml", documentXml) : { name: "word/document.xml", ...documentXml },
  ];
}

function xlsxParts(sheet) {
  return [
    text("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'),
    text("_rels/.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'),
    text("xl/workbook.xml", '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'),
    text("xl/_rels/workbook.xml.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'),
    typeof sheet === "string" ? text("xl/worksheets/sheet1.xml", sheet) : { name: "xl/worksheets/sheet1.xml", ...sheet },
  ];
}

function pptxParts(slide) {
  return [
    text("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>'),
    text("_rels/.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="ppt/presentation.xml"/></Relationships>'),
    text("ppt/presentation.xml", '<?xml version="1.0"?><p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><p:sldIdLst><p:sldId id="256" r:id="rId2"/></p:sldIdLst></p:presentation>'),
    text("ppt/_rels/presentation.xml.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide1.xml"/></Relationships>'),
    typeof slide === "string" ? text("ppt/slides/slide1.xml", slide) : { name: "ppt/slides/slide1.xml", ...slide },
  ];
}

/** XML that expands to about `megabytes` MB of one text run. */
function xmlBomb(open, close, megabytes, fill = "A") {
  return deflateRepeated(Buffer.from(open), Buffer.alloc(MB, fill), megabytes, Buffer.from(close));
}

const docxOpen = `<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body><w:p><w:r><w:t>`;
const docxClose = "</w:t></w:r></w:p></w:body></w:document>";
const sheetOpen = '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>';
const sheetClose = "</t></is></c></row></sheetData></worksheet>";
const slideOpen = '<?xml version="1.0"?><p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>';
const slideClose = "</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>";

const billionLaughs =
  '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
  Array.from({ length: 8 }, (_, i) => `<!ENTITY lol${i + 2} "${`&lol${i + 1};`.repeat(10)}">`).join("") +
  "]>";

// ---- pictures ---------------------------------------------------------------------------------------------

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type, body) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  const typed = Buffer.concat([Buffer.from(type, "latin1"), body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typed) >>> 0);
  return Buffer.concat([length, typed, crc]);
}

function png(width, height, idat) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([PNG_SIGNATURE, pngChunk("IHDR", header), pngChunk("IDAT", idat), pngChunk("IEND", Buffer.alloc(0))]);
}

/** A PNG that says `width`×`height`, with its first 200 rows of black pixels (zlib-wrapped, as PNG wants). */
function pngBomb(width, height) {
  return png(width, height, zlib.deflateSync(Buffer.alloc(200 * (1 + width * 3)), { level: 9 }));
}

function jpegHeader(width, height) {
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 255, width >> 8, width & 255, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), sof, noise(300, 3)]);
}

// ---- PDFs -------------------------------------------------------------------------------------------------

/** A PDF from object bodies (1-based), with a correct cross-reference table unless `brokenXref`. */
function pdf(objects, { brokenXref = false, trailer = "" } = {}) {
  let body = "%PDF-1.7\n";
  const offsets = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefAt = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(brokenXref ? offset + 7 : offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailer}>>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

const onePageObjects = (pagesDictionary, content = "BT /F1 12 Tf 72 720 Td (Hello) Tj ET") => [
  "<< /Type /Catalog /Pages 2 0 R >>",
  pagesDictionary,
  "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
  `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
];

function encryptedPdf() {
  const PDFDocument = require("pdfkit");
  return new Promise((resolve) => {
    const document = new PDFDocument({ userPassword: "secret", ownerPassword: "owner", pdfVersion: "1.7" });
    const parts = [];
    document.on("data", (part) => parts.push(part));
    document.on("end", () => resolve(Buffer.concat(parts)));
    document.text("Only with the password.");
    document.end();
  });
}

// ---- e-mail -----------------------------------------------------------------------------------------------

function email(attachments, body = "See the attachment.") {
  const boundary = "hostile-boundary";
  const parts = attachments.map(
    ({ name, data, type = "application/octet-stream" }) =>
      `--${boundary}\r\nContent-Type: ${type}; name="${name}"\r\nContent-Disposition: attachment; filename="${name}"\r\nContent-Transfer-Encoding: base64\r\n\r\n${data.toString("base64").replace(/.{76}/g, "$&\r\n")}\r\n`,
  );
  return Buffer.from(
    `From: Mallory <mallory@example.com>\r\nTo: ops@example.com\r\nSubject: Invoice\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="${boundary}"\r\n\r\n` +
      `--${boundary}\r\nContent-Type: text/plain\r\n\r\n${body}\r\n${parts.join("")}--${boundary}--\r\n`,
  );
}

/** An e-mail nested `depth` times as a message/rfc822 part of the one around it. */
function nestedEmail(depth) {
  let message = "Subject: innermost\r\n\r\nhello\r\n";
  for (let level = 0; level < depth; level += 1) {
    message = `Subject: level ${level}\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b${level}"\r\n\r\n--b${level}\r\nContent-Type: message/rfc822\r\n\r\n${message}\r\n--b${level}--\r\n`;
  }
  return Buffer.from(message);
}

// ---- the corpus -------------------------------------------------------------------------------------------

/**
 * @returns {Promise<{ name: string, data: Buffer, attack: string, expect: "failed" | "done" | "refused" }[]>}
 */
async function hostileCorpus() {
  const files = [];
  const add = (name, attack, expect, data) => files.push({ name, attack, expect, data });
  // The expanded bytes are deflated on libuv's threads: made side by side, and the worksheet bomb, which two files
  // carry, once.
  const [docxBomb, sheetBomb, slideBomb, lyingDocxBomb, sheetBombs, paragraphs, encrypted] = await Promise.all([
    xmlBomb(docxOpen, docxClose, 400),
    xmlBomb(sheetOpen, sheetClose, 400),
    xmlBomb(slideOpen, slideClose, 400),
    xmlBomb(docxOpen, docxClose, 300),
    Promise.all(Array.from({ length: 40 }, async (_, i) => ({ name: `xl/worksheets/extra${i}.xml`, ...(await xmlBomb(sheetOpen, sheetClose, 8)) }))),
    deflateRepeated(Buffer.from(`<?xml version="1.0"?><w:document ${W}><w:body>`), Buffer.from("<w:p><w:r><w:t>x</w:t></w:r></w:p>".repeat(30_000)), 200, Buffer.from("</w:body></w:document>")),
    encryptedPdf(),
  ]);

  // pictures
  add("noise.png", "the PNG signature and 200 bytes of noise (killed the server through tesseract.js)", "failed", Buffer.concat([PNG_SIGNATURE, noise(200)]));
  add("broken-pixels.png", "a valid PNG header over pixel data that does not inflate", "failed", png(64, 64, noise(80, 11)));
  add("60000x60000.png", "a decodable PNG of 3.6 billion pixels", "failed", pngBomb(60_000, 60_000));
  add("20000x20000.png", "a PNG header of 400 million pixels over a truncated image", "failed", png(20_000, 20_000, zlib.deflateSync(Buffer.alloc(1000))));
  add("zero-size.png", "a PNG of 0×0 pixels", "failed", png(0, 0, zlib.deflateSync(Buffer.alloc(0))));
  add("65000x65000.jpg", "a JPEG frame header of 4.2 billion pixels", "failed", jpegHeader(65_000, 65_000));
  add("truncated.jpg", "a JPEG start marker and noise", "failed", Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), noise(500, 5)]));
  add("65535x65535.gif", "a GIF screen of 4.3 billion pixels", "failed", Buffer.concat([Buffer.from("GIF89a"), Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0]), noise(100, 9)]));
  const vp8x = Buffer.alloc(30);
  vp8x.write("RIFF", 0, "latin1");
  vp8x.writeUInt32LE(22, 4);
  vp8x.write("WEBPVP8X", 8, "latin1");
  vp8x.writeUIntLE(16_383, 24, 3);
  vp8x.writeUIntLE(16_383, 27, 3);
  add("16384x16384.webp", "a WebP canvas of 268 million pixels", "failed", vp8x);
  add("text-named.png", "a text file named .png", "failed", Buffer.from("This is not a picture at all.\n"));
  add("empty.png", "an empty picture", "done", Buffer.alloc(0));

  // zip bombs, one of every container type, and containers that lie
  add("bomb-400mb.docx", "a 400 MB document.xml deflated to a few hundred KB", "failed", zip(docxParts(docxBomb)));
  add("bomb-400mb.xlsx", "a 400 MB worksheet deflated to a few hundred KB", "failed", zip(xlsxParts(sheetBomb)));
  add("bomb-400mb.pptx", "a 400 MB slide deflated to a few hundred KB", "failed", zip(pptxParts(slideBomb)));
  add("bomb-lying-sizes.docx", "a 300 MB document.xml whose zip headers say 1 KB", "failed", zip(docxParts(lyingDocxBomb), { declaredSize: 1024 }));
  const manyParts = Array.from({ length: 12_000 }, (_, i) => text(`word/media/part${i}.xml`, "<a/>"));
  add("12000-parts.docx", "a container of 12,000 parts", "failed", zip([...docxParts(`<w:document ${W}><w:body/></w:document>`), ...manyParts]));
  add("many-bombs.xlsx", "40 sheets of 8 MB each, together past the limit", "failed", zip([...xlsxParts(sheetOpen + sheetClose), ...sheetBombs]));
  add("paragraphs-200mb.docx", "200 MB of tiny paragraphs: under the unpacking limit, far over what a parser can hold in memory", "failed", zip(docxParts(paragraphs)));
  add("billion-laughs.docx", "XML entity expansion in document.xml", "failed", zip(docxParts(`${billionLaughs}<w:document ${W}><w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>`)));
  add("billion-laughs.pptx", "XML entity expansion in a slide", "done", zip(pptxParts(`${billionLaughs}<p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>&lol9;</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`)));
  add("deep-xml.docx", "document.xml nested 200,000 elements deep", "failed", zip(docxParts(`<w:document ${W}><w:body>${"<w:p>".repeat(200_000)}${"</w:p>".repeat(200_000)}</w:body></w:document>`)));
  add("deep-xml.pptx", "a slide nested 200,000 elements deep", "failed", zip(pptxParts(`<p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main">${"<p:x>".repeat(200_000)}${"</p:x>".repeat(200_000)}</p:sld>`)));
  add("wide-xml.xlsx", "a worksheet of 1,000,000 empty rows", "failed", zip(xlsxParts(`${sheetOpen.slice(0, sheetOpen.indexOf("<row"))}${"<row/>".repeat(1_000_000)}</sheetData></worksheet>`)));
  add("not-a-zip.docx", "noise named .docx", "failed", noise(4000, 13));
  add("truncated.xlsx", "the first half of a workbook", "failed", zip(xlsxParts(`${sheetOpen}cut${sheetClose}`)).subarray(0, 400));
  add("empty-zip.pptx", "a zip with no parts", "failed", zip([]));
  add("pdf-named.docx", "a PDF named .docx", "failed", pdf(onePageObjects("<< /Type /Pages /Kids [3 0 R] /Count 1 >>")));

  // PDFs
  add("absurd-page-count.pdf", "a page tree that claims 2 billion pages", "done", pdf(onePageObjects("<< /Type /Pages /Kids [3 0 R] /Count 2000000000 >>")));
  add("self-referencing-pages.pdf", "a page tree whose kids include itself", "failed", pdf(onePageObjects("<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>")));
  add("broken-stream.pdf", "a content stream that is not the deflate it says it is", "done", pdf([...onePageObjects("<< /Type /Pages /Kids [3 0 R] /Count 1 >>").slice(0, 3), `<< /Length 200 /Filter /FlateDecode >>\nstream\n${noise(200, 17).toString("latin1")}\nendstream`, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]));
  add("broken-xref.pdf", "a cross-reference table that points beside every object", "done", pdf(onePageObjects("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"), { brokenXref: true }));
  add("encrypted.pdf", "a PDF that needs a password", "failed", encrypted);
  add("header-only.pdf", "only a PDF header", "failed", Buffer.from("%PDF-1.7\n"));
  add("png-named.pdf", "a picture named .pdf", "failed", png(16, 16, zlib.deflateSync(Buffer.alloc(16 * 49))));
  add("huge-image.pdf", "a page painting a 60000×60000 picture", "done", pdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /Im1 5 0 R >> >> >>",
    "<< /Length 30 >>\nstream\nq 612 0 0 792 0 0 cm /Im1 Do Q\nendstream",
    `<< /Type /XObject /Subtype /Image /Width 60000 /Height 60000 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length 1000 >>\nstream\n${zlib.deflateSync(Buffer.alloc(100_000)).subarray(0, 1000).toString("latin1")}\nendstream`,
  ]));
  add("deep-arrays.pdf", "a content stream nested 100,000 arrays deep", "done", pdf([...onePageObjects("<< /Type /Pages /Kids [3 0 R] /Count 1 >>").slice(0, 3), `<< /Length ${200_001} >>\nstream\n${"[".repeat(100_000)}${"]".repeat(100_000)} \nendstream`, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]));
  add("empty.pdf", "an empty PDF", "done", Buffer.alloc(0));

  // text, markup and data
  add("empty.txt", "an empty text file", "done", Buffer.alloc(0));
  add("one-line-10mb.txt", "10 MB of words on one line", "done", Buffer.from("lorem ipsum dolor sit amet ".repeat(Math.floor((10 * MB - 64) / 27))));
  add("nul-bytes.txt", "2 MB of NUL bytes", "done", Buffer.alloc(2 * MB));
  add("noise.txt", "1 MB of noise named .txt", "done", noise(MB, 19));
  add("one-line-2mb.py", "2 MB of code on one line", "done", Buffer.from("x=1;".repeat((2 * MB) / 4)));
  add("deep-quotes.md", "Markdown block quotes nested 100,000 deep", "failed", Buffer.from(`${">".repeat(100_000)} deep\n`));
  add("emphasis-storm.md", "1 MB of unmatched emphasis markers", "failed", Buffer.from("*_".repeat(MB / 2)));
  add("deep-divs.html", "HTML nested 200,000 elements deep", "failed", Buffer.from(`<html><body>${"<div>".repeat(200_000)}deep${"</div>".repeat(200_000)}</body></html>`));
  add("data-uri-bomb.html", "an HTML page with a 60000×60000 picture as a data: URI", "done", Buffer.from(`<html><body><p>Picture:</p><img src="data:image/png;base64,${(pngBomb(60_000, 60_000)).toString("base64")}"></body></html>`));
  add("deep-arrays.json", "JSON nested 1,000,000 arrays deep", "failed", Buffer.from(`${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`));
  add("100000-keys.json", "a JSON object of 100,000 keys", "done", Buffer.from(JSON.stringify(Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i])))));
  add("unbalanced-quotes.csv", "a CSV whose first quote never closes", "failed", Buffer.from(`name,value\n"open,${"x".repeat(MB)}\nnext,1\n`));
  add("one-column-400k-rows.csv", "400,000 rows of one column", "done", Buffer.from(`n\n${Array.from({ length: 400_000 }, (_, i) => i).join("\n")}\n`));
  add("utf16-bad-surrogates.txt", "UTF-16 with a byte-order mark and lone surrogates", "done", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("hello ", "utf16le"), Buffer.from([0x00, 0xd8, 0x00, 0xd8, 0x41, 0x00])]));
  add("gzip-named.txt", "a gzip stream named .txt", "done", zlib.gzipSync(Buffer.alloc(MB, 0x41)));
  add("garbage.xls", "an OLE2 header over noise", "failed", Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), noise(5000, 23)]));

  // e-mail
  add("bomb-attachment.eml", "an e-mail carrying a zip-bomb workbook and an oversized picture", "done", email([
    { name: "report.xlsx", data: zip(xlsxParts(sheetBomb)) },
    { name: "scan.png", data: pngBomb(60_000, 60_000), type: "image/png" },
  ]));
  add("nested-200.eml", "an e-mail nested 200 messages deep", "done", nestedEmail(200));
  add("500-attachments.eml", "an e-mail with 500 small attachments", "done", email(Array.from({ length: 500 }, (_, i) => ({ name: `note${i}.txt`, data: Buffer.from(`note ${i}`) }))));
  add("not-an-email.eml", "noise named .eml", "done", noise(3000, 29));

  // names
  add("control\u0007chars\u001b[31m\u0001.txt", "a file name with control characters", "refused", Buffer.from("A file with a strange name."));
  add(`${"long".repeat(60)}.txt`, "a 244-character file name", "done", Buffer.from("A file with a long name."));
  return files;
}

module.exports = { hostileCorpus };
