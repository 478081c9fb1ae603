import { ParserSandbox } from "../ingestion/sandbox/parser-sandbox";
import { DomainError } from "../platform/errors";
import { inputFileText, INPUT_FILE_MAX_BYTES } from "./input-file-text";

/** A file given to a Begin input reaches the flow as its text, parsed in a parse process like any document. */

const parsers = new ParserSandbox({ documentMs: 60_000, stepMs: 30_000, memoryBytes: 1024 * 1024 * 1024 });
afterAll(() => parsers.close());

const signal = new AbortController().signal;

async function refusal(file: { name: string; data: Buffer }): Promise<DomainError> {
  const error = await inputFileText(parsers, file, signal).then(
    () => new Error("the file was read"),
    (e: unknown) => e,
  );
  if (!(error instanceof DomainError)) throw error;
  return error;
}

test("a Markdown file and an HTML page give their text, without markup", async () => {
  const markdown = "# Harbour\n\nThe office opens at **eight**.\n\n- boats moor on the eastern pier";
  expect(await inputFileText(parsers, { name: "notes.md", data: Buffer.from(markdown) }, signal)).toBe("Harbour\nThe office opens at eight.\nboats moor on the eastern pier");
  const html = "<html><head><title>Fees</title><script>alert(1)</script></head><body><h1>Fees</h1><p>Paid at the <b>office</b>.</p></body></html>";
  const text = await inputFileText(parsers, { name: "fees.html", data: Buffer.from(html) }, signal);
  expect(text).toContain("Paid at the office.");
  expect(text).not.toMatch(/<|alert/);
});

test("a file of a type no parser reads, one too large and one the parser refuses are refused with their reason", async () => {
  expect(await refusal({ name: "tool.exe", data: Buffer.from("MZ") })).toMatchObject({ kind: "BAD_REQUEST", messageKey: "errors.knowledge.fileTypeUnsupported" });
  expect(await refusal({ name: "big.txt", data: Buffer.alloc(INPUT_FILE_MAX_BYTES + 1, 0x61) })).toMatchObject({ kind: "PAYLOAD_TOO_LARGE", messageKey: "flow.errors.inputFileTooLarge", params: { max: 10 } });
  expect(await refusal({ name: "broken.docx", data: Buffer.from("not a zip at all") })).toMatchObject({ kind: "BAD_REQUEST", messageKey: "errors.parsing.docxInvalid" });
});
