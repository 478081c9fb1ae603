import { logMessage, type LogMessage } from "../parse-log";
import { parserContext, sampleCsv, sampleXls, sampleXlsx } from "../testing/sample-files";
import { ParseError } from "../types";
import { csvParser } from "./csv";
import { xlsParser } from "./xls";
import { xlsxParser } from "./xlsx";

describe("the spreadsheet parsers", () => {
  it("read each XLSX sheet as a table named after it, from the first non-empty row, with formula results and ISO dates", async () => {
    const progress: [number, LogMessage | undefined][] = [];
    const document = await xlsxParser.parse(await sampleXlsx(), parserContext("sales.xlsx", { progress: (fraction, message) => progress.push([fraction, message]) }));
    expect(document.pageCount).toBe(2);
    expect(document.blocks).toEqual([
      {
        kind: "table",
        caption: "Sales",
        page: 1,
        header: ["Product", "Quantity", "Unit price", "Total", "Ordered"],
        rows: [["Lamp", "2", "45", "90", "2024-03-01"], ["Desk", "1", "320", "320", "2024-03-15"]],
      },
      { kind: "table", caption: "Notes", page: 2, header: ["Topic", "Note"], rows: [["Delivery", "Ships within 3 days"]] },
    ]);
    expect(progress).toEqual([[0.5, logMessage("parseLog.sheet", { name: "Sales" })], [1, logMessage("parseLog.sheet", { name: "Notes" })]]);
  });

  it("read an Excel 97–2003 workbook the same way", async () => {
    const document = await xlsParser.parse(await sampleXls(), parserContext("cities.xls"));
    expect(document.pageCount).toBe(2);
    expect(document.blocks).toEqual([
      { kind: "table", caption: "Cities", page: 1, header: ["City", "Population", "Updated"], rows: [["Hamburg", "1850000", "2024-05-07"], ["Bremen", "570000", "unknown"]] },
      { kind: "table", caption: "Settings", page: 2, header: ["Key", "Value"], rows: [["currency", "EUR"]] },
    ]);
  });

  it("read a CSV file with the delimiter it uses, quoted fields and Chinese, skipping blank lines", async () => {
    const document = await csvParser.parse(await sampleCsv(), parserContext("people.csv"));
    expect(document.blocks).toEqual([
      {
        kind: "table",
        header: ["Name", "City", "Comment"],
        rows: [["Smith, John", "Berlin", 'He said "hello"'], ["王芳", "北京", "检索增强"], ["Li Lei", "Shanghai", ""]],
      },
    ]);
    const tabs = await csvParser.parse(Buffer.from("a\tb\n1\t2,5\n"), parserContext("tabs.csv"));
    expect(tabs.blocks).toEqual([{ kind: "table", header: ["a", "b"], rows: [["1", "2,5"]] }]);
  });

  it("refuse files that are not workbooks", async () => {
    await expect(xlsxParser.parse(Buffer.from("plain text"), parserContext("fake.xlsx"))).rejects.toThrow(ParseError.because("errors.parsing.xlsxInvalid"));
    await expect(xlsParser.parse(Buffer.from("plain text"), parserContext("fake.xls"))).rejects.toThrow(ParseError.because("errors.parsing.xlsInvalid"));
  });
});
