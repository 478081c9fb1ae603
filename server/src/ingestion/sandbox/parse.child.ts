import { closeTesseract, TesseractOcr } from "../../models/builtin/tesseract-ocr";
import { countTokens } from "../../models/tokens";
import { chunkParsed } from "../chunking";
import { chunkMethod } from "../chunkers/registry";
import { PARSE_LIMITS } from "../parsers/limits";
import { parserNamed } from "../parsers/registry";
import { previewOf } from "../preview";
import { ParseError, type ParsedDocument } from "../types";
import { asBuffer, type ParseReply, type ParseRequest, type PreviewRequest } from "./messages";

/**
 * A parse process: reads one file at a time with the parser the server names, chunks it when its method
 * calls no model, and sends back the result. It runs apart from the server (see parser-sandbox.ts) so that
 * whatever a file does to it — exhaust its memory, loop, crash a native decoder — ends here.
 */

const send = (reply: ParseReply) => process.send!(reply);

/** PostgreSQL stores no NUL character in text; a file full of them still parses into what else it holds. */
function withoutNul(document: ParsedDocument): ParsedDocument {
  const clean = (text: string) => (text.includes("\u0000") ? text.replaceAll("\u0000", "") : text);
  for (const block of document.blocks) {
    if (block.kind === "table") {
      block.header = block.header.map(clean);
      block.rows = block.rows.map((row) => row.map(clean));
    } else if (block.kind !== "pageBreak") block.text = clean(block.text);
  }
  for (const attachment of document.attachments ?? []) withoutNul(attachment.document);
  return document;
}

function textLength(document: ParsedDocument): number {
  let length = 0;
  for (const block of document.blocks) {
    if (block.kind === "table") length += block.header.join("").length + block.rows.reduce((sum, row) => sum + row.join("").length, 0);
    else if (block.kind !== "pageBreak") length += block.text.length;
  }
  return length + (document.attachments ?? []).reduce((sum, attachment) => sum + textLength(attachment.document), 0);
}

const noModels = () => Promise.reject(new Error("A method that calls models chunks in the server"));

async function parse(request: ParseRequest): Promise<void> {
  const parser = parserNamed(request.parser);
  if (!parser) throw new Error(`No parser is named ${request.parser}`);
  const signal = new AbortController().signal;
  const document = withoutNul(
    await parser.parse(asBuffer(request.data), {
      fileName: request.fileName,
      pages: request.pages,
      layoutRecognize: request.layoutRecognize,
      language: request.language,
      ocr: new TesseractOcr(),
      signal,
      progress: (fraction, message) => send({ type: "progress", phase: "parse", fraction, message }),
    }),
  );
  if (textLength(document) > PARSE_LIMITS.textCharacters) {
    throw ParseError.because("errors.parsing.tooMuchText", { limit: PARSE_LIMITS.textCharacters / 1e6 });
  }
  const method = request.chunking && chunkMethod(request.chunking.method);
  if (!method || method.usesModels) {
    send({ type: "parsed", document });
    return;
  }
  const chunked = await chunkParsed(document, method, {
    fileName: request.fileName,
    config: request.chunking!.config,
    language: request.language,
    chat: noModels,
    img2txt: noModels,
    signal,
    progress: (fraction, message) => send({ type: "progress", phase: "chunk", fraction, message }),
  });
  send({ type: "parsed", document: { ...document, blocks: [], attachments: undefined }, chunked });
}

process.on("message", (request: ParseRequest | PreviewRequest) => {
  if (request.type === "preview") {
    // previewOf answers every file with a preview: only a crash or a limit of this process fails it
    previewOf(asBuffer(request.data), request.fileName).then(
      (preview) => send({ type: "previewed", preview }),
      (error: unknown) => {
        console.error(`[preview] failed on ${request.fileName}:`, error);
        send({ type: "failed" });
      },
    );
    return;
  }
  if (request.type !== "parse") return;
  parse(request).catch((error: unknown) => {
    if (error instanceof ParseError) send({ type: "failed", reason: error.reason });
    else {
      console.error(`[parse] the ${request.parser} parser failed on ${request.fileName}:`, error);
      send({ type: "failed" });
    }
  });
});

// Every chunk method counts tokens: the tokenizer's tables (~1 s to load) are read before the first file arrives.
countTokens("warm up");

// The server went away: nothing is left to parse for.
process.on("disconnect", () => {
  void closeTesseract().finally(() => process.exit(0));
});
