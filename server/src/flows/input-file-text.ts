import { blockText } from "../ingestion/chunkers/blocks";
import { parserFor } from "../ingestion/parsers/registry";
import type { ParserSandbox } from "../ingestion/sandbox/parser-sandbox";
import { ParseError } from "../ingestion/types";
import { DomainError } from "../platform/errors";

/** A file given to a Begin input may be as large as an uploaded document (§9: 10 MB). */
export const INPUT_FILE_MAX_BYTES = 10 * 1024 * 1024;

export interface InputFile {
  name: string;
  data: Buffer;
}

/**
 * The text of a file given for a Begin `file` input: the run panel sends the file, the flow reads its text. It is
 * parsed as a document is, by the parser its extension names, in a parse process of its own (ingestion/sandbox), never
 * in the server; only the text layer is read (no OCR), and nothing is stored.
 */
export async function inputFileText(parsers: Pick<ParserSandbox, "parse">, file: InputFile, signal: AbortSignal): Promise<string> {
  if (file.data.byteLength > INPUT_FILE_MAX_BYTES) throw new DomainError("PAYLOAD_TOO_LARGE", "flow.errors.inputFileTooLarge", { name: file.name, max: INPUT_FILE_MAX_BYTES / 1024 / 1024 });
  const parser = parserFor(file.name);
  if (!parser) throw new DomainError("BAD_REQUEST", "errors.knowledge.fileTypeUnsupported", { name: file.name });
  try {
    const { document } = await parsers.parse({ parser: parser.name, data: file.data, fileName: file.name, layoutRecognize: false, language: "English", signal, progress: () => undefined });
    return document.blocks
      .map(blockText)
      .filter((text) => text !== "")
      .join("\n");
  } catch (error) {
    // A file the parser refused with a reason (damaged, encrypted, beyond a limit): that reason, in the reader's language.
    if (error instanceof ParseError && error.reason?.messageKey) throw new DomainError("BAD_REQUEST", error.reason.messageKey, error.reason.params);
    throw error;
  }
}
