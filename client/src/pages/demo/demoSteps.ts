import { RUN } from "../../documents/runStatus";

/** The demo's four steps, in order, and where each one stands, from what the server says exists. */
export type StepState = "waiting" | "running" | "done" | "failed";

export interface DemoDocumentState {
  id: string;
  name: string;
  run: string;
  progress: number;
  chunkCount: number;
}

export interface DemoSnapshot {
  knowledgeBase: { id: string } | null;
  documents: DemoDocumentState[];
  assistant: { id: string } | null;
  flow: { id: string } | null;
  sampleCount: number;
}

export interface DemoSteps {
  knowledgeBase: StepState;
  parsing: StepState;
  assistant: StepState;
  flow: StepState;
  parsed: number;
  /** Every step done. */
  complete: boolean;
  /** Parsing is over and the assistant is still to be made: the page asks the server to finish. */
  needsFinishing: boolean;
}

export function demoSteps(demo: DemoSnapshot | null, starting: boolean): DemoSteps {
  const documents = demo?.documents ?? [];
  const parsed = documents.filter((d) => d.run === RUN.done).length;
  const failed = documents.some((d) => d.run === RUN.failed || d.run === RUN.cancelled);
  const allParsed = demo !== null && documents.length === demo.sampleCount && parsed === demo.sampleCount;
  const knowledgeBase: StepState = demo?.knowledgeBase ? "done" : starting ? "running" : "waiting";
  const parsing: StepState = allParsed ? "done" : failed ? "failed" : documents.length > 0 || starting ? "running" : "waiting";
  const assistant: StepState = demo?.assistant ? "done" : allParsed ? "running" : "waiting";
  const flow: StepState = demo?.flow ? "done" : starting ? "running" : "waiting";
  return {
    knowledgeBase,
    parsing,
    assistant,
    flow,
    parsed,
    complete: [knowledgeBase, parsing, assistant, flow].every((state) => state === "done"),
    needsFinishing: allParsed && !demo?.assistant,
  };
}

/** A document's state with the newest progress event over it (the events carry no name). */
export function withProgress(document: DemoDocumentState, event: Partial<Pick<DemoDocumentState, "run" | "progress" | "chunkCount">> | undefined): DemoDocumentState {
  return event ? { ...document, ...event } : document;
}
