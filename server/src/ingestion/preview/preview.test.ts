import zlib from "node:zlib";
import ExcelJS from "exceljs";
import { EML_SUBJECT, PPTX_TITLES, sampleCsv, sampleDocx, sampleEml, samplePdf, samplePptx, sampleXls, sampleXlsx } from "../testing/sample-files";
import { fileParsers } from "../parsers/registry";
import { PREVIEW_LIMITS } from "./limits";
import { previewOf } from "./index";

/** Every type Cairn parses gets a rendered preview; hostile files get a bounded "unsupported" with a reason. */

const reasonOf = async (bytes: Buffer, fileName: string) => {
  const preview = await previewOf(bytes, fileName);
  expect(preview.kind).toBe("unsupported");
  return preview.reason!.messageKey;
};

/** A zip whose parts are deflated runs of zeros: small on disk, `parts` × `partBytes` once unpacked. */
function zipBomb(parts: number, partBytes: number): Buffer {
  const deflated = zlib.deflateRawSync(Buffer.alloc(partBytes), { level: 9 });
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (let index = 0; index < parts; index += 1) {
    const name = Buffer.from(index === 0 ? "word/document.xml" : `word/media/part${index}.xml`);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(deflated.length, 18);
    local.writeUInt32LE(partBytes, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(deflated.length, 20);
    central.writeUInt32LE(partBytes, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, deflated);
    centrals.push(central, name);
    offset += local.length + name.length + deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts, 8);
  end.writeUInt16LE(parts, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

describe("previewOf", () => {
  test("every type a parser reads has a preview maker", async () => {
    const extensions = fileParsers.flatMap((parser) => parser.extensions);
    const without = [];
    for (const extension of extensions) {
      const preview = await previewOf(Buffer.from("x"), `file.${extension}`);
      if (preview.reason?.messageKey === "preview.reason.unsupportedType") without.push(extension);
    }
    expect(without).toEqual([]);
  });

  test("a type no parser reads, and an empty file, say why there is no preview", async () => {
    const preview = await previewOf(Buffer.from("binary"), "old.doc");
    expect(preview).toEqual({ kind: "unsupported", fileName: "old.doc", truncated: false, reason: { messageKey: "preview.reason.unsupportedType", params: { suffix: "doc" } } });
    expect(await reasonOf(Buffer.alloc(0), "empty.txt")).toBe("preview.reason.empty");
  });

  test("a PDF and a picture are left to the client's viewers; bytes that are no PDF are said to be damaged", async () => {
    expect(await previewOf(await samplePdf(), "report.pdf")).toMatchObject({ kind: "pdf", fileName: "report.pdf" });
    expect(await previewOf(Buffer.from([0x89, 0x50, 0x4e, 0x47]), "logo.png")).toMatchObject({ kind: "image" });
    expect(await reasonOf(Buffer.from("not a pdf at all"), "fake.pdf")).toBe("preview.reason.damaged");
  });

  test("a DOCX becomes formatted, sanitised HTML", async () => {
    const preview = await previewOf(await sampleDocx(), "guide.docx");
    expect(preview.kind).toBe("html");
    expect(preview.html).toContain("<h1>Onboarding guide</h1>");
    expect(preview.html).toContain("<strong>first week</strong>");
    expect(preview.html).toMatch(/<table>.*<td><p>Ada Lovelace<\/p><\/td>/s);
    expect(preview.html).toMatch(/<ul><li>Collect the laptop/);
    expect(preview.truncated).toBe(false);
  });

  test("a zip bomb named .docx stops at the expansion limit, quickly", async () => {
    const started = Date.now();
    // 300 parts of 1 MB: 300 MB unpacked from ~300 KB
    expect(await reasonOf(zipBomb(300, 1024 * 1024), "bomb.docx")).toBe("errors.parsing.expandsBeyond");
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  test("Markdown is passed on as Markdown, cut at the text limit", async () => {
    expect(await previewOf(Buffer.from("# Title\n\n<script>x</script> *text*"), "notes.md")).toMatchObject({ kind: "markdown", markdown: "# Title\n\n<script>x</script> *text*", truncated: false });
    const long = await previewOf(Buffer.from("line\n".repeat(PREVIEW_LIMITS.textCharacters / 4)), "long.md");
    expect(long.truncated).toBe(true);
    expect(long.markdown!.length).toBeLessThanOrEqual(PREVIEW_LIMITS.textCharacters);
  });

  test("a CSV becomes a sheet of rows", async () => {
    const preview = await previewOf(await sampleCsv(), "people.csv");
    expect(preview.kind).toBe("table");
    expect(preview.sheets).toEqual([
      { name: "people.csv", rows: [["Name", "City", "Comment"], ["Smith, John", "Berlin", 'He said "hello"'], ["王芳", "北京", "检索增强"], ["Li Lei", "Shanghai", ""]], totalRows: 4, totalColumns: 3, truncated: false },
    ]);
  });

  test("a large CSV keeps its first rows and columns, counts the others and says it was cut", async () => {
    const row = (index: number) => Array.from({ length: 60 }, (_, column) => `r${index}c${column}`).join(",");
    const csv = Buffer.from(Array.from({ length: 5000 }, (_, index) => row(index)).join("\n"));
    const [sheet] = (await previewOf(csv, "big.csv")).sheets!;
    expect({ rows: sheet.rows.length, columns: sheet.rows[0].length, totalRows: sheet.totalRows, totalColumns: sheet.totalColumns, truncated: sheet.truncated }).toEqual({
      rows: PREVIEW_LIMITS.rows,
      columns: PREVIEW_LIMITS.columns,
      totalRows: 5000,
      totalColumns: 60,
      truncated: true,
    });
  });

  test("workbooks (.xlsx and .xls) become their sheets, read only to the row limit", async () => {
    const xlsx = await previewOf(await sampleXlsx(), "sales.xlsx");
    expect(xlsx.sheets!.map((sheet) => sheet.name)).toEqual(["Sales", "Notes"]);
    expect(xlsx.sheets![1].rows).toEqual([["Topic", "Note"], ["Delivery", "Ships within 3 days"]]);
    expect(xlsx.sheets![0].rows.flat()).toEqual(expect.arrayContaining(["Product", "Lamp", "90"]));
    const xls = await previewOf(await sampleXls(), "cities.xls");
    expect(xls.sheets!.map((sheet) => sheet.name)).toEqual(["Cities", "Settings"]);

    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Log");
    for (let index = 1; index <= 3000; index += 1) sheet.addRow([index, `entry ${index}`]);
    const [log] = (await previewOf(Buffer.from(await workbook.xlsx.writeBuffer()), "log.xlsx")).sheets!;
    expect({ rows: log.rows.length, totalRows: log.totalRows, truncated: log.truncated }).toEqual({ rows: PREVIEW_LIMITS.rows, totalRows: 3000, truncated: true });
  });

  test("an e-mail shows its headers, its body and its attachments' names; an HTML body is sanitised", async () => {
    const preview = await previewOf(await sampleEml(), "mail.eml");
    expect(preview.kind).toBe("email");
    expect(preview.email).toMatchObject({ from: "张伟 <zhang.wei@example.com>", to: "Team <team@example.com>", cc: null, subject: EML_SUBJECT, date: "Mon, 03 Mar 2025 09:30:00 +0800", html: null, attachments: ["agenda.txt"] });
    expect(preview.email!.text).toContain("Please bring your laptop.");

    const html = ["From: a@example.com", "Subject: Hi", "Content-Type: text/html; charset=UTF-8", "", '<p onclick="steal()">Hello <img src="https://tracker.example/p.gif"><script>steal()</script></p>'].join("\r\n");
    expect((await previewOf(Buffer.from(html), "hi.eml")).email!.html!.trim()).toBe("<p>Hello </p>");
  });

  test("text and code come with the language to highlight them in; a web page's source is shown, not rendered", async () => {
    expect(await previewOf(Buffer.from("def f():\n    return 1\n"), "f.py")).toMatchObject({ kind: "text", text: "def f():\n    return 1\n", language: "python" });
    expect(await previewOf(Buffer.from("just words"), "a.txt")).toMatchObject({ kind: "text", language: null });
    expect(await previewOf(Buffer.from("<script>alert(1)</script>"), "page.html")).toMatchObject({ kind: "text", text: "<script>alert(1)</script>", language: "xml" });
    expect(await previewOf(Buffer.from("\ufeffnaïve"), "bom.txt")).toMatchObject({ text: "naïve" });
  });

  test("binary junk named .txt, .csv or .md is said not to be text", async () => {
    const junk = Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 7919) % 256));
    for (const name of ["junk.txt", "junk.csv", "junk.md", "junk.json"]) expect(await reasonOf(junk, name)).toBe("preview.reason.notText");
  });

  test("a presentation becomes the text of its slides", async () => {
    const preview = await previewOf(await samplePptx(), "deck.pptx");
    expect(preview.kind).toBe("slides");
    expect(preview.slides!.map((slide) => slide.title)).toEqual(PPTX_TITLES);
    expect(preview.slides!.map((slide) => slide.number)).toEqual([1, 2, 3]);
    expect(preview.slides!.every((slide) => slide.text.length > 0)).toBe(true);
  });

  test("a damaged DOCX or workbook says it cannot be read", async () => {
    expect(await reasonOf(Buffer.from("PK\u0003\u0004 nothing else"), "broken.docx")).toBe("errors.parsing.docxInvalid");
    expect(await reasonOf(Buffer.from("random words"), "broken.xls")).toBe("errors.parsing.xlsInvalid");
  });
});
