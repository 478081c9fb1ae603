import { CHINESE_PARAGRAPH, parserContext, sampleDocx, sampleXlsx } from "../testing/sample-files";
import { ParseError } from "../types";
import { docxParser } from "./docx";

describe("the DOCX parser", () => {
  it("reads headings from the paragraph styles, nested list items, the table with its header row and Chinese text", async () => {
    const document = await docxParser.parse(await sampleDocx(), parserContext("guide.docx"));
    expect(document.blocks).toEqual([
      { kind: "heading", level: 1, text: "Onboarding guide" },
      { kind: "paragraph", text: "New colleagues read this guide in their first week." },
      { kind: "heading", level: 2, text: "Checklist" },
      { kind: "listItem", depth: 0, text: "Collect the laptop" },
      { kind: "listItem", depth: 1, text: "Install the password manager" },
      { kind: "listItem", depth: 0, text: "Meet the team" },
      { kind: "heading", level: 2, text: "Contacts" },
      { kind: "table", header: ["Role", "Name"], rows: [["Manager", "Ada Lovelace"], ["Buddy", "Alan Turing"]] },
      { kind: "paragraph", text: CHINESE_PARAGRAPH },
    ]);
  });

  it("refuses a file that is not a Word document, or a zip that holds another format", async () => {
    await expect(docxParser.parse(Buffer.from("not a zip at all"), parserContext("broken.docx"))).rejects.toThrow(ParseError.because("errors.parsing.docxInvalid"));
    await expect(docxParser.parse(await sampleXlsx(), parserContext("renamed.docx"))).rejects.toThrow(ParseError.because("errors.parsing.docxInvalid"));
  });
});
