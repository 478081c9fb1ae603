import { demoSteps, withProgress, type DemoSnapshot } from "./demoSteps";

const documents = (runs: string[]) => runs.map((run, i) => ({ id: `d${i}`, name: `s${i}`, run, progress: run === "3" ? 1 : 0.5, chunkCount: run === "3" ? 2 : 0 }));

test("before the start every step waits; while starting, the knowledge base, parsing and flow are under way", () => {
  expect(demoSteps(null, false)).toMatchObject({ knowledgeBase: "waiting", parsing: "waiting", assistant: "waiting", flow: "waiting", complete: false });
  expect(demoSteps(null, true)).toMatchObject({ knowledgeBase: "running", parsing: "running", assistant: "waiting", flow: "running" });
});

test("parsed documents make the assistant the next step, which the page asks the server to finish", () => {
  const demo: DemoSnapshot = { knowledgeBase: { id: "k" }, documents: documents(["3", "3", "1", "3"]), assistant: null, flow: { id: "f" }, sampleCount: 4 };
  expect(demoSteps(demo, false)).toMatchObject({ parsing: "running", parsed: 3, assistant: "waiting", needsFinishing: false });
  const parsed = { ...demo, documents: documents(Array(4).fill("3")) };
  expect(demoSteps(parsed, false)).toMatchObject({ parsing: "done", assistant: "running", needsFinishing: true, complete: false });
  expect(demoSteps({ ...parsed, assistant: { id: "a" } }, false)).toMatchObject({ complete: true, needsFinishing: false });
});

test("a failed document fails the parsing step", () => {
  const demo: DemoSnapshot = { knowledgeBase: { id: "k" }, documents: documents(["3", "4", "3", "3"]), assistant: null, flow: { id: "f" }, sampleCount: 4 };
  expect(demoSteps(demo, false)).toMatchObject({ parsing: "failed", needsFinishing: false });
});

test("a progress event updates the document it names", () => {
  const [document] = documents(["1"]);
  expect(withProgress(document, { run: "3", progress: 1, chunkCount: 4 })).toMatchObject({ name: "s0", run: "3", chunkCount: 4 });
  expect(withProgress(document, undefined)).toBe(document);
});
