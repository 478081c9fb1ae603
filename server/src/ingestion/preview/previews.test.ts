import { ParserSandbox } from "../sandbox/parser-sandbox";
import { sampleDocx } from "../testing/sample-files";
import { PreviewKind } from "./preview";
import { Previews } from "./previews";

/** Previews are made in a parse process, watched for time and memory, and kept per stored object. */

const sandboxes: ParserSandbox[] = [];
function sandbox(previewMs: number): ParserSandbox {
  const made = new ParserSandbox({ documentMs: 120_000, stepMs: 60_000, memoryBytes: 1536 * 1024 * 1024, previewMs });
  sandboxes.push(made);
  return made;
}
afterAll(() => Promise.all(sandboxes.map((s) => s.close())));

test("a preview is made in a parse process and comes back whole", async () => {
  const parsers = sandbox(60_000);
  const preview = await parsers.preview(await sampleDocx(), "guide.docx");
  expect(preview.kind).toBe("html");
  expect(preview.html).toContain("<h1>Onboarding guide</h1>");
  expect(parsers.pids.length).toBe(1);
  expect(parsers.pids[0]).not.toBe(process.pid);
});

test("a preview past its time limit ends its process and previews as unsupported with the limit, which is not kept", async () => {
  // No parse process starts and renders a DOCX within a millisecond: the limit is always passed. (With a short text
  // file, a reply that came while a loaded machine kept this process waiting was read before the late timer fired.)
  const parsers = sandbox(1);
  const previews = new Previews((bytes, fileName) => parsers.preview(bytes, fileName));
  const docx = await sampleDocx();
  let reads = 0;
  const read = async () => {
    reads += 1;
    return docx;
  };
  expect(await previews.of("kb/doc", "a.docx", read)).toEqual({ kind: "unsupported", fileName: "a.docx", truncated: false, reason: { messageKey: "preview.reason.timeLimit", params: { seconds: 0 } } });
  await previews.of("kb/doc", "a.docx", read);
  expect(reads).toBe(2);
});

test("a preview is kept per stored object and name, the most recently asked longest, up to a total size", async () => {
  const made: string[] = [];
  // each preview holds 256 + 1000 characters: two fit in 3000
  const previews = new Previews(async (_bytes, fileName) => {
    made.push(fileName);
    return { kind: PreviewKind.text, fileName, text: "x".repeat(1000), truncated: false };
  }, 3000);
  const read = () => Promise.resolve(Buffer.from("x"));
  await previews.of("k1", "a.txt", read);
  await previews.of("k1", "a.txt", read);
  await previews.of("k2", "b.txt", read);
  await previews.of("k1", "a.txt", read);
  await previews.of("k3", "c.txt", read); // k2 goes
  await previews.of("k1", "a.txt", read);
  await previews.of("k2", "b.txt", read);
  // a renamed file is another preview (its name says its type)
  await previews.of("k1", "a.md", read);
  expect(made).toEqual(["a.txt", "b.txt", "c.txt", "b.txt", "a.md"]);
});

test("a store that cannot be read fails the ask and keeps nothing", async () => {
  const previews = new Previews();
  await expect(previews.of("k", "a.txt", () => Promise.reject(new Error("store down")))).rejects.toThrow("store down");
  expect((await previews.of("k", "a.txt", () => Promise.resolve(Buffer.from("back")))).text).toBe("back");
});
