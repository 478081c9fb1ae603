import { logMessage } from "../parse-log";
import type * as XLSXModule from "xlsx";
import type { Block, FileParser } from "../types";
import { ParseError } from "../types";
import { isoDate, sheetTable } from "./spreadsheet-table";

// Loaded when a workbook needs it: the library takes a while to load, and most parse processes never do.
const xlsx = () => require("xlsx") as typeof XLSXModule;

/**
 * What Excel saves as .xls: a BIFF compound file, or (from "Save as" in older versions and web exports) an HTML or
 * SpreadsheetML text, or a zipped workbook that was renamed. Anything else SheetJS would read as one column of text.
 */
export function looksLikeWorkbook(data: Buffer): boolean {
  const compoundFile = data.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));
  const biffStream = data[0] === 0x09 && [0x00, 0x02, 0x04, 0x08].includes(data[1]);
  const zip = data.subarray(0, 4).equals(Buffer.from("PK\x03\x04", "latin1"));
  const markup = /^\s*</.test(data.subarray(0, 512).toString("latin1").replace(/^\xef\xbb\xbf/, ""));
  return compoundFile || biffStream || zip || markup;
}

function cellText(XLSX: typeof XLSXModule, cell: XLSXModule.CellObject | undefined): string {
  if (!cell || cell.v === undefined || cell.v === null) return "";
  // serial day numbers with a date format, converted without the local time zone (SheetJS' Date objects depend on it)
  const date = cell.t === "n" && cell.z && XLSX.SSF.is_date(String(cell.z)) ? XLSX.SSF.parse_date_code(Number(cell.v)) : null;
  if (date) return isoDate(new Date(Date.UTC(date.y, date.m - 1, date.d, date.H, date.M, date.S)));
  if (cell.t === "e") return cell.w ?? "";
  return String(cell.v);
}

/** Excel 97–2003 workbooks (SheetJS): one table per sheet, formulas as their stored results, dates in ISO 8601. */
export const xlsParser: FileParser = {
  name: "xls",
  extensions: ["xls"],
  async parse(data, context) {
    if (!looksLikeWorkbook(data)) throw ParseError.because("errors.parsing.xlsInvalid");
    const XLSX = xlsx();
    let workbook: XLSXModule.WorkBook;
    try {
      workbook = XLSX.read(data, { type: "buffer", cellNF: true, cellHTML: false, cellFormula: false });
    } catch (error) {
      throw ParseError.because("errors.parsing.xlsUnreadable", { reason: (error as Error).message });
    }
    const blocks: Block[] = [];
    const names = workbook.SheetNames;
    for (const [index, name] of names.entries()) {
      context.signal.throwIfAborted();
      const sheet = workbook.Sheets[name];
      const range = sheet["!ref"] ? XLSX.utils.decode_range(sheet["!ref"]) : null;
      const cells: string[][] = [];
      for (let row = range?.s.r ?? 0; range && row <= range.e.r; row += 1) {
        const values: string[] = [];
        for (let column = range.s.c; column <= range.e.c; column += 1) values.push(cellText(XLSX, sheet[XLSX.utils.encode_cell({ r: row, c: column })]));
        cells.push(values);
      }
      const table = sheetTable(cells, name, index + 1);
      if (table) blocks.push(table);
      context.progress((index + 1) / names.length, logMessage("parseLog.sheet", { name }));
    }
    return { blocks, pageCount: names.length, notes: [] };
  },
};
