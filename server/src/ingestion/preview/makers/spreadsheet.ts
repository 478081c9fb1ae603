import type * as XLSXModule from "xlsx";
import { fileExtension } from "../../file-types";
import { ParseError } from "../../types";
import { looksLikeWorkbook } from "../../parsers/xls";
import { checkZipContainer } from "../../parsers/zip-limits";
import { PreviewKind } from "../preview";
import { PREVIEW_LIMITS } from "../limits";
import type { PreviewMaker } from "../maker";
import { previewSheet } from "./sheet";

/**
 * Excel workbooks (SheetJS, for .xlsx and .xls alike): the first sheets, each read only to its first rows
 * (`sheetRows`, so a sheet of a million rows costs no more than one of a thousand), cells as Excel shows them.
 */
export const spreadsheetPreview: PreviewMaker = {
  name: "spreadsheet",
  extensions: ["xlsx", "xls"],
  async make(bytes, fileName) {
    if (fileExtension(fileName) === "xlsx") await checkZipContainer(bytes);
    else if (!looksLikeWorkbook(bytes)) throw ParseError.because("errors.parsing.xlsInvalid");
    // Loaded when a workbook needs it: the library takes a while to load.
    const XLSX = require("xlsx") as typeof XLSXModule;
    let workbook: XLSXModule.WorkBook;
    try {
      workbook = XLSX.read(bytes, { type: "buffer", sheetRows: PREVIEW_LIMITS.rows, cellHTML: false, cellFormula: false, cellStyles: false, sheets: [...Array(PREVIEW_LIMITS.sheets).keys()] });
    } catch (error) {
      throw ParseError.because("errors.parsing.xlsUnreadable", { reason: (error as Error).message });
    }
    const names = workbook.SheetNames.slice(0, PREVIEW_LIMITS.sheets);
    const sheets = names.map((name) => {
      const sheet = workbook.Sheets[name];
      const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, defval: "", blankrows: false }).map((row) => row.map((cell) => String(cell ?? "")));
      // with sheetRows, `!fullref` keeps the whole sheet's range
      const full = sheet["!fullref"] ?? sheet["!ref"];
      const range = full ? XLSX.utils.decode_range(full) : null;
      return previewSheet(name, rows, range ? range.e.r - range.s.r + 1 : rows.length, range ? range.e.c - range.s.c + 1 : 0);
    });
    const truncated = workbook.SheetNames.length > names.length || sheets.some((sheet) => sheet.truncated);
    return { kind: PreviewKind.table, fileName, sheets, truncated };
  },
};
