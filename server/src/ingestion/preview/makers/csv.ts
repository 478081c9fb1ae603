import { parse } from "csv-parse/sync";
import { ParseError } from "../../types";
import { detectDelimiter } from "../../parsers/csv";
import { PreviewKind } from "../preview";
import { PREVIEW_LIMITS } from "../limits";
import { textOf, unsupported, type PreviewMaker } from "../maker";
import { previewSheet } from "./sheet";

/** CSV as one sheet: its first rows are kept, the others only counted (within the first megabytes read). */
export const csvPreview: PreviewMaker = {
  name: "csv",
  extensions: ["csv"],
  async make(bytes, fileName) {
    const read = bytes.subarray(0, PREVIEW_LIMITS.csvBytes);
    const text = textOf(read);
    if (text === null) return unsupported(fileName, "preview.reason.notText");
    // the last line of a file cut in the middle is incomplete
    const whole = read.length === bytes.length ? text : text.slice(0, text.lastIndexOf("\n") + 1);
    let total = 0;
    let widest = 0;
    let rows: string[][];
    try {
      rows = parse(whole, {
        delimiter: detectDelimiter(whole),
        relax_column_count: true,
        relax_quotes: true,
        skip_empty_lines: true,
        on_record: (record: string[]) => {
          total += 1;
          widest = Math.max(widest, record.length);
          return total <= PREVIEW_LIMITS.rows ? record : null;
        },
      });
    } catch (error) {
      throw ParseError.because("errors.parsing.csvUnreadable", { reason: (error as Error).message });
    }
    const sheet = previewSheet(fileName.replace(/^.*[\\/]/, ""), rows, total, widest);
    // rows past the bytes read are not counted
    if (read.length < bytes.length) sheet.truncated = true;
    return { kind: PreviewKind.table, fileName, sheets: [sheet], truncated: sheet.truncated };
  },
};
