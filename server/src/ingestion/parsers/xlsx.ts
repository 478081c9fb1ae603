import { logMessage } from "../parse-log";
import type ExcelJS from "exceljs";
import type { Block, FileParser } from "../types";
import { ParseError } from "../types";
import { isoDate, sheetTable } from "./spreadsheet-table";
import { checkZipContainer } from "./zip-limits";

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return isoDate(value);
  if (typeof value !== "object") return String(value);
  if ("result" in value) return cellText(value.result as ExcelJS.CellValue);
  if ("formula" in value || "sharedFormula" in value) return "";
  if ("richText" in value) return value.richText.map((run) => run.text).join("");
  if ("hyperlink" in value) return cellText(value.text as ExcelJS.CellValue);
  if ("error" in value) return value.error;
  return "";
}

/** Excel workbooks (exceljs): one table per sheet, formulas as their cached results, dates in ISO 8601. */
export const xlsxParser: FileParser = {
  name: "xlsx",
  extensions: ["xlsx"],
  async parse(data, context) {
    await checkZipContainer(data);
    // Loaded when a workbook needs it: the library takes a while to load, and most parse processes never do.
    const { Workbook } = require("exceljs") as typeof ExcelJS;
    const workbook = new Workbook();
    try {
      await workbook.xlsx.load(data as unknown as ExcelJS.Buffer);
    } catch {
      throw ParseError.because("errors.parsing.xlsxInvalid");
    }
    const blocks: Block[] = [];
    const sheets = workbook.worksheets;
    for (const [index, sheet] of sheets.entries()) {
      context.signal.throwIfAborted();
      const cells = sheet.getSheetValues().map((row) => (Array.isArray(row) ? row.slice(1).map(cellText) : []));
      const table = sheetTable(cells, sheet.name, index + 1);
      if (table) blocks.push(table);
      context.progress((index + 1) / sheets.length, logMessage("parseLog.sheet", { name: sheet.name }));
    }
    return { blocks, pageCount: sheets.length, notes: [] };
  },
};
