import { documentTypeOf, fileExtension } from "./file-types";

describe("the upload rule (RAGFlow's file types)", () => {
  it("sorts files by extension into pdf, doc, visual and aural, whatever the case of the name", () => {
    expect(documentTypeOf("Report.PDF")).toBe("pdf");
    expect(["notes.docx", "deck.pptx", "data.jsonl", "main.kt", "query.sql", "page.htm", "sheet.numbers"].map(documentTypeOf)).toEqual(Array(7).fill("doc"));
    expect(["scan.TIF", "photo.jpeg", "clip.mkv", "icon.ico"].map(documentTypeOf)).toEqual(Array(4).fill("visual"));
    expect(["talk.mp3", "voice.opus", "song.WV"].map(documentTypeOf)).toEqual(Array(3).fill("aural"));
  });

  it("refuses a file whose type is not listed, or that has no extension", () => {
    expect(documentTypeOf("archive.zip")).toBeNull();
    expect(documentTypeOf("image.bmp")).toBeNull();
    expect(documentTypeOf("README")).toBeNull();
    expect(documentTypeOf("data.json.gz")).toBeNull();
  });

  it("takes the extension after the last dot of the file name, in lower case", () => {
    expect(fileExtension("a.b.TXT")).toBe("txt");
    expect(fileExtension("folder.v2/Makefile")).toBe("");
    expect(fileExtension("no-extension")).toBe("");
  });
});
