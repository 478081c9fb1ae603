import { documentTypeOf } from "../file-types";
import { fileParsers, parserFor } from "./registry";

/** Accepted uploads that no parser reads yet: the pipeline fails them with a reason. */
const WITHOUT_PARSER = ["doc", "ppt", "wps", "rtf", "hlp", "msg", "pages", "numbers", "key"];

const DOC_EXTENSIONS = [
  "msg", "eml", "doc", "docx", "ppt", "pptx", "yml", "xml", "htm", "json", "jsonl", "ldjson", "csv", "txt", "ini", "xls", "xlsx", "wps", "rtf",
  "hlp", "pages", "numbers", "key", "md", "mdx", "py", "js", "java", "c", "cpp", "h", "php", "go", "ts", "sh", "cs", "kt", "html", "sql",
];

describe("the parser registry", () => {
  it("finds a parser for every document and PDF type except the ones listed as unsupported", () => {
    for (const extension of ["pdf", ...DOC_EXTENSIONS]) {
      expect([extension, parserFor(`file.${extension}`) === undefined]).toEqual([extension, WITHOUT_PARSER.includes(extension)]);
    }
  });

  it("chooses by the lower-cased extension", () => {
    expect(parserFor("Scan.PDF")?.name).toBe("pdf");
    expect(parserFor("notes.Md")?.name).toBe("markdown");
    expect(parserFor("photo.JPG")?.name).toBe("image");
    expect(parserFor("archive.zip")).toBeUndefined();
  });

  it("reads the pictures the upload rule accepts and OCR can decode", () => {
    expect(["jpg", "jpeg", "png", "gif", "webp"].map((extension) => [extension, parserFor(`x.${extension}`)?.name])).toEqual(
      ["jpg", "jpeg", "png", "gif", "webp"].map((extension) => [extension, "image"]),
    );
    expect(parserFor("scan.tif")).toBeUndefined();
    expect(parserFor("talk.mp3")).toBeUndefined();
  });

  it("gives each extension to one parser only, and only for files the upload rule accepts (or bmp)", () => {
    const extensions = fileParsers.flatMap((parser) => parser.extensions);
    expect(new Set(extensions).size).toBe(extensions.length);
    expect(extensions.filter((extension) => documentTypeOf(`x.${extension}`) === null)).toEqual(["bmp"]);
  });
});
