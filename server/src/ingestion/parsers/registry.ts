import { fileExtension } from "../file-types";
import type { FileParser } from "../types";
import { codeParser } from "./code";
import { csvParser } from "./csv";
import { docxParser } from "./docx";
import { emailParser } from "./eml";
import { htmlParser } from "./html";
import { imageParser } from "./image";
import { jsonParser } from "./json";
import { markdownParser } from "./markdown";
import { pdfParser } from "./pdf";
import { pptxParser } from "./pptx";
import { textParser } from "./text";
import { xlsParser } from "./xls";
import { xlsxParser } from "./xlsx";

/**
 * Every file parser. Uploads the upload rule accepts but no parser reads (doc, ppt, wps, rtf, hlp, msg, pages,
 * numbers, key, tif and the other pictures and all audio and video) get no parser: the pipeline fails them with a reason.
 */
export const fileParsers: FileParser[] = [
  pdfParser, docxParser, xlsxParser, xlsParser, csvParser, pptxParser, htmlParser, markdownParser, textParser, codeParser, jsonParser,
  emailParser(parserFor), imageParser,
];

const PARSER_BY_EXTENSION = new Map(fileParsers.flatMap((parser) => parser.extensions.map((extension) => [extension, parser] as const)));

export function parserNamed(name: string): FileParser | undefined {
  return fileParsers.find((parser) => parser.name === name);
}

export function parserFor(fileName: string): FileParser | undefined {
  return PARSER_BY_EXTENSION.get(fileExtension(fileName));
}
