import zlib from "node:zlib";
import type { LogMessage } from "../parse-log";
import { encodePng } from "../parsers/png";
import { ParseError } from "../types";
import { ParserSandbox, type SandboxLimits, type SandboxResult } from "./parser-sandbox";

/**
 * Files are parsed in processes of their own: whatever a file does there ends there, as a ParseError with
 * a reason, and the next file is parsed as usual.
 */

const GENEROUS: SandboxLimits = { documentMs: 120_000, stepMs: 60_000, memoryBytes: 1536 * 1024 * 1024 };

const sandboxes: ParserSandbox[] = [];
function sandbox(limits: Partial<SandboxLimits> = {}): ParserSandbox {
  const made = new ParserSandbox({ ...GENEROUS, ...limits });
  sandboxes.push(made);
  return made;
}
afterAll(() => Promise.all(sandboxes.map((s) => s.close())));

function request(parser: string, fileName: string, data: Buffer, signal = new AbortController().signal) {
  const progress: LogMessage[] = [];
  return {
    progress,
    request: { parser, data, fileName, layoutRecognize: true, language: "English", signal, progress: (_phase: string, _fraction: number, message?: LogMessage) => void (message && progress.push(message)) },
  };
}

async function reasonOf(parse: Promise<SandboxResult>): Promise<string | undefined> {
  const error = await parse.then(
    () => new Error("the parse succeeded"),
    (e: unknown) => e,
  );
  if (!(error instanceof ParseError)) throw error;
  return error.reason?.messageKey;
}

/** A PNG signature and IHDR saying what it likes, then bytes that are no picture. */
function fakePng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const ihdr = Buffer.concat([Buffer.from([0, 0, 0, 13]), Buffer.from("IHDR"), header, Buffer.alloc(4)]);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr, zlib.deflateSync(Buffer.alloc(64, 7)).subarray(0, 40)]);
}

/** The PNG signature and 200 bytes of noise: what killed the server when tesseract.js was handed it. */
function noisePng(): Buffer {
  let seed = 7;
  const noise = Buffer.alloc(200, 0).map(() => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256);
  return Buffer.concat([fakePng(1, 1).subarray(0, 8), noise]);
}

test("a file is parsed in another process, and its text comes back", async () => {
  const parsers = sandbox();
  const { request: parse } = request("text", "notes.txt", Buffer.from("The harbour office opens at nine.\n\nBoats dock at pier four."));
  const { document } = await parsers.parse(parse);
  expect(document.blocks.map((block) => ("text" in block ? block.text : ""))).toEqual(["The harbour office opens at nine.", "Boats dock at pier four."]);
  expect(parsers.pids).toHaveLength(1);
  expect(parsers.pids[0]).not.toBe(process.pid);
});

test("a method that calls no model chunks in the parse process too, and a 10 MB line is cut in time", async () => {
  const parsers = sandbox();
  const line = Buffer.from("lorem ipsum dolor sit amet ".repeat(380_000));
  const { request: parse } = request("text", "line.txt", line);
  const { document, chunked } = await parsers.parse({ ...parse, chunking: { method: "naive", config: { chunk_token_num: 512 } } });
  expect(document.blocks).toEqual([]);
  expect(chunked!.drafts.length).toBeGreaterThan(3000);
  expect(chunked!.drafts.every((draft) => draft.text.length < 4000)).toBe(true);
  // ~10 s on a quiet machine; a CI machine under load took over a minute
}, 180_000);

test("an undecodable or oversized picture fails with its reason, and the next file parses in the same sandbox", async () => {
  const parsers = sandbox();
  expect(await reasonOf(parsers.parse(request("image", "noise.png", noisePng()).request))).toBe(
    "errors.parsing.imageUnreadable",
  );
  expect(await reasonOf(parsers.parse(request("image", "broken.png", fakePng(40, 40)).request))).toBe("errors.parsing.imageUnreadable");
  expect(await reasonOf(parsers.parse(request("image", "huge.png", fakePng(60_000, 60_000)).request))).toBe("errors.parsing.imageTooLarge");
  const next = await parsers.parse(request("text", "after.txt", Buffer.from("Still here.")).request);
  expect(next.document.blocks).toHaveLength(1);
});

test("a process that goes past its memory limit is ended and its document fails for memory", async () => {
  // OCR's models alone take more than this
  const parsers = sandbox({ memoryBytes: 96 * 1024 * 1024 });
  const picture = encodePng(200, 200, new Uint8Array(200 * 200).fill(255), 1);
  expect(await reasonOf(parsers.parse(request("image", "white.png", picture).request))).toBe("errors.parsing.outOfMemory");
});

test("a parser that reports no progress within the step limit has stopped responding", async () => {
  // starting the process alone takes longer than this
  const parsers = sandbox({ stepMs: 20 });
  expect(await reasonOf(parsers.parse(request("text", "slow.txt", Buffer.from("text")).request))).toBe("errors.parsing.stoppedResponding");
});

test("a document that takes longer than the document limit is stopped", async () => {
  const parsers = sandbox({ documentMs: 20 });
  expect(await reasonOf(parsers.parse(request("text", "slow.txt", Buffer.from("text")).request))).toBe("errors.parsing.timeLimit");
});

test("a parse process that dies mid-parse fails its document as crashed", async () => {
  const parsers = sandbox();
  const { request: parse } = request("text", "big.txt", Buffer.from("word ".repeat(3_000_000)));
  const parsing = parsers.parse(parse);
  while (parsers.pids.length === 0) await new Promise((resolve) => setImmediate(resolve));
  process.kill(parsers.pids[0], "SIGKILL");
  expect(await reasonOf(parsing)).toBe("errors.parsing.crashed");
});

test("a cancelled parse ends its process and rejects with the cancellation", async () => {
  const parsers = sandbox();
  const controller = new AbortController();
  const parsing = parsers.parse(request("text", "big.txt", Buffer.from("word ".repeat(3_000_000)), controller.signal).request);
  controller.abort();
  await expect(parsing).rejects.toThrow(/abort/i);
});

test("parses beyond the number of parse processes wait for one, and a cancelled waiting one never starts", async () => {
  const parsers = new ParserSandbox(GENEROUS, 1);
  sandboxes.push(parsers);
  let mostProcesses = 0;
  const watching = setInterval(() => (mostProcesses = Math.max(mostProcesses, parsers.pids.length)), 5);
  try {
    const cancelled = new AbortController();
    const first = parsers.parse(request("text", "a.txt", Buffer.from("word ".repeat(300_000))).request);
    const waiting = parsers.parse(request("text", "b.txt", Buffer.from("waits its turn"), cancelled.signal).request);
    const third = parsers.parse(request("text", "c.txt", Buffer.from("after the first")).request);
    cancelled.abort();
    await expect(waiting).rejects.toThrow(/abort/i);
    const [a, c] = await Promise.all([first, third]);
    expect(a.document.blocks.length).toBeGreaterThan(0);
    expect(c.document.blocks.length).toBeGreaterThan(0);
    expect(mostProcesses).toBe(1);
  } finally {
    clearInterval(watching);
  }
});
