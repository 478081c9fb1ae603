import { describe, expect, test } from "@jest/globals";
import { idleRun, isLive, nodeStatesOf, runReducer, type RunAction, type RunEvent, type RunView } from "./runEvents";

/** What the editor shows of a run, from the turn it started and the run's events (as flowRunEvents delivers them). */

const NODES = ["begin", "retrieval", "generate", "answer"];

const reference = { total: 1, chunks: [{ id: "c1", content: "Fees are paid on departure.", document_id: "d1", document_name: "fees.pdf" }], doc_aggs: [{ doc_id: "d1", doc_name: "fees.pdf", count: 1 }] };

/** A chat turn of Begin → Retrieval → Generate → Answer that waits at the Answer, numbered as the server numbers it. */
function chatTurn(runId = "run1", sessionId = "s1"): RunEvent[] {
  const events: Omit<RunEvent, "runId" | "seq">[] = [
    { type: "run_started", sessionId },
    { type: "node_started", componentId: "begin", componentName: "Begin" },
    { type: "node_finished", componentId: "begin", componentName: "Begin", inputs: [], output: { content: "Hi" }, elapsedMs: 2, tokens: 0 },
    { type: "node_started", componentId: "retrieval", componentName: "Retrieval" },
    { type: "node_finished", componentId: "retrieval", componentName: "Retrieval", inputs: [{ component_id: "sys.query", content: "fees?" }], output: { content: "Fees are paid on departure." }, elapsedMs: 40, tokens: 0 },
    { type: "node_started", componentId: "generate", componentName: "Generate" },
    { type: "message", componentId: "generate", delta: "Paid on " },
    { type: "message", componentId: "generate", delta: "departure [ID:0]." },
    { type: "node_finished", componentId: "generate", componentName: "Generate", inputs: [], output: { content: "Paid on departure [ID:0]." }, elapsedMs: 900, tokens: 120 },
    { type: "node_started", componentId: "answer", componentName: "Answer" },
    { type: "node_finished", componentId: "answer", componentName: "Answer", inputs: [], output: { content: "Paid on departure [ID:0]." }, elapsedMs: 1, tokens: 0 },
    { type: "message_end", reference },
    { type: "waiting_for_input", componentId: "answer" },
    { type: "run_finished", status: "waiting" },
  ];
  return events.map((event, i) => ({ ...event, runId, seq: i + 1 }) as RunEvent);
}

function play(view: RunView, ...actions: RunAction[]): RunView {
  return actions.reduce(runReducer, view);
}

const events = (list: RunEvent[]): RunAction[] => list.map((event) => ({ type: "event", event }));
const started = play(idleRun, { type: "turn", runId: "run1", sessionId: "s1", message: "fees?" });

describe("a turn the panel starts", () => {
  test("is queued with the user's question, and every component waits", () => {
    expect(started).toMatchObject({ runId: "run1", sessionId: "s1", status: "queued", error: null, lastSeq: 0 });
    expect(started.messages).toEqual([{ id: "run1:question", role: "user", content: "fees?", runId: "run1" }]);
    expect(nodeStatesOf(started, NODES)).toEqual({ begin: { status: "waiting" }, retrieval: { status: "waiting" }, generate: { status: "waiting" }, answer: { status: "waiting" } });
  });

  test("colours components as they start and finish, the others still waiting", () => {
    const midway = play(started, ...events(chatTurn().slice(0, 6)));
    expect(midway.status).toBe("running");
    expect(nodeStatesOf(midway, NODES)).toEqual({
      begin: { status: "done", elapsedMs: 2, error: null, inputs: [], output: { content: "Hi" } },
      retrieval: { status: "done", elapsedMs: 40, error: null, inputs: [{ component_id: "sys.query", content: "fees?" }], output: { content: "Fees are paid on departure." } },
      generate: { status: "running" },
      answer: { status: "waiting" },
    });
    expect(midway.steps.map((step) => [step.componentId, step.status, step.elapsedMs])).toEqual([
      ["begin", "done", 2],
      ["retrieval", "done", 40],
      ["generate", "running", null],
    ]);
  });

  test("streams the answer piece by piece, and gives it its citations at its end", () => {
    const streaming = play(started, ...events(chatTurn().slice(0, 8)));
    expect(streaming.messages.at(-1)).toEqual({ id: "run1:answer", role: "assistant", content: "Paid on departure [ID:0].", runId: "run1", streaming: true });
    const done = play(started, ...events(chatTurn()));
    expect(done.messages.at(-1)).toEqual({ id: "run1:answer", role: "assistant", content: "Paid on departure [ID:0].", runId: "run1", streaming: false, reference });
  });

  test("ends waiting at the Answer, with the turn's tokens counted", () => {
    const done = play(started, ...events(chatTurn()));
    expect(done).toMatchObject({ status: "waiting", waitingAt: "answer", tokens: 120, error: null, lastSeq: 14 });
    expect(isLive(done.status)).toBe(false);
    expect(Object.values(nodeStatesOf(done, NODES)).map((state) => state.status)).toEqual(["done", "done", "done", "done"]);
  });

  test("marks the components it did not run skipped once it ended, and leaves out none it ran outside the list", () => {
    const turn = chatTurn().filter((event) => !["retrieval"].includes(event.componentId ?? ""));
    const done = play(started, ...events(turn));
    const states = nodeStatesOf(done, [...NODES, "note"]);
    expect(states.retrieval).toEqual({ status: "skipped" });
    expect(states.note).toEqual({ status: "skipped" });
    expect(states.generate.status).toBe("done");
    // A component inside an Iteration is not drawn on its own, but it ran.
    const inner = play(started, ...events([{ runId: "run1", seq: 1, type: "node_started", componentId: "Iteration:x/Generate:y", componentName: "Generate" }]));
    expect(nodeStatesOf(inner, NODES)["Iteration:x/Generate:y"]).toEqual({ status: "running" });
  });

  test("a finished flow (no Answer to wait at) ends finished", () => {
    const list = [...chatTurn().slice(0, 12), { runId: "run1", seq: 13, type: "run_finished", status: "finished" } as RunEvent];
    const done = play(started, ...events(list));
    expect(done).toMatchObject({ status: "finished", waitingAt: null });
  });
});

describe("order and repeats", () => {
  test("an event at or below the last applied is a repeat and changes nothing (a reconnect replays from the start)", () => {
    const turn = chatTurn();
    const once = play(started, ...events(turn));
    const twice = play(started, ...events(turn.slice(0, 9)), ...events(turn));
    expect(twice).toEqual(once);
    expect(twice.messages.at(-1)?.content).toBe("Paid on departure [ID:0].");
  });

  test("an event of another run (one the panel left) is ignored", () => {
    const other = chatTurn("run0");
    expect(play(started, ...events(other))).toBe(started);
  });

  test("a component that runs twice in a turn (a loop) is listed twice, its state the latest", () => {
    const loop: RunEvent[] = [
      { runId: "run1", seq: 1, type: "node_started", componentId: "generate", componentName: "Generate" },
      { runId: "run1", seq: 2, type: "node_finished", componentId: "generate", componentName: "Generate", elapsedMs: 5, tokens: 1, output: { content: "a" } },
      { runId: "run1", seq: 3, type: "node_started", componentId: "generate", componentName: "Generate" },
      { runId: "run1", seq: 4, type: "node_finished", componentId: "generate", componentName: "Generate", elapsedMs: 7, tokens: 1, output: { content: "b" } },
    ];
    const view = play(started, ...events(loop));
    expect(view.steps.map((step) => [step.key, step.elapsedMs])).toEqual([
      ["1", 5],
      ["3", 7],
    ]);
    expect(view.ran.generate).toMatchObject({ status: "done", elapsedMs: 7, output: { content: "b" } });
    expect(view.tokens).toBe(2);
  });
});

describe("failure and stop", () => {
  test("a failed component is marked with its error, and the run's failure is kept for the panel", () => {
    const list: RunEvent[] = [
      ...chatTurn().slice(0, 6),
      { runId: "run1", seq: 7, type: "node_finished", componentId: "generate", componentName: "Generate", error: "The model refused the key.", elapsedMs: 30, tokens: 0, inputs: [], output: null },
      { runId: "run1", seq: 8, type: "run_failed", error: "Generate: The model refused the key." },
    ];
    const failed = play(started, ...events(list));
    expect(failed).toMatchObject({ status: "failed", error: "Generate: The model refused the key." });
    const states = nodeStatesOf(failed, NODES);
    expect(states.generate).toEqual({ status: "failed", elapsedMs: 30, error: "The model refused the key.", inputs: [], output: null });
    expect(states.answer).toEqual({ status: "skipped" });
    expect(failed.steps.at(-1)).toMatchObject({ componentId: "generate", status: "failed", error: "The model refused the key." });
  });

  test("a run that fails while a component runs fails that component too, and stops the answer's caret", () => {
    const list: RunEvent[] = [...chatTurn().slice(0, 7), { runId: "run1", seq: 8, type: "run_failed", error: "The run took too long." }];
    const failed = play(started, ...events(list));
    expect(failed.ran.generate).toEqual({ status: "failed", error: "The run took too long." });
    expect(failed.messages.at(-1)).toMatchObject({ content: "Paid on ", streaming: false });
  });

  test("a run that fails without a reason keeps an empty error (the panel says it failed)", () => {
    const failed = play(started, ...events([{ runId: "run1", seq: 1, type: "run_failed", error: null }]));
    expect(failed).toMatchObject({ status: "failed", error: "" });
  });

  test("a stopped run leaves the component it stopped in, and those not reached, skipped", () => {
    const list: RunEvent[] = [...chatTurn().slice(0, 6), { runId: "run1", seq: 7, type: "run_cancelled" }];
    const stopped = play(started, ...events(list));
    expect(stopped).toMatchObject({ status: "cancelled", error: null });
    const states = nodeStatesOf(stopped, NODES);
    expect([states.begin.status, states.retrieval.status, states.generate.status, states.answer.status]).toEqual(["done", "done", "skipped", "skipped"]);
    expect(stopped.steps.at(-1)).toMatchObject({ componentId: "generate", status: "skipped" });
  });

  test("a stop answered before the stream's last events keeps the run stopped", () => {
    const midway = play(started, ...events(chatTurn().slice(0, 5)));
    const stopped = play(midway, { type: "outcome", run: { id: "run1", sessionId: "s1", status: "cancelled", answer: "" } });
    const late = play(stopped, ...events([...chatTurn().slice(5, 6), { runId: "run1", seq: 7, type: "run_cancelled" }]));
    expect(late.status).toBe("cancelled");
    expect(late.ran.generate).toEqual({ status: "skipped" });
    expect(nodeStatesOf(late, NODES).answer).toEqual({ status: "skipped" });
  });

  test("a stream that broke off is settled from the stored run, its whole answer with it", () => {
    const cut = play(started, ...events(chatTurn().slice(0, 7)));
    const row = { id: "run1", sessionId: "s1", status: "waiting", error: null, answer: "Paid on departure [ID:0].", reference };
    const settled = play(cut, { type: "outcome", run: row });
    expect(settled.status).toBe("waiting");
    expect(settled.messages.at(-1)).toMatchObject({ content: "Paid on departure [ID:0].", reference, streaming: false });
    // A row still running says nothing new; a row of another run neither.
    expect(play(cut, { type: "outcome", run: { ...row, status: "running" } })).toBe(cut);
    expect(play(cut, { type: "outcome", run: { ...row, id: "run0" } })).toBe(cut);
    expect(play(cut, { type: "outcome", run: { ...row, status: "failed", error: "Interrupted.", answer: "" } })).toMatchObject({ status: "failed", error: "Interrupted." });
  });
});

describe("the next turns", () => {
  test("a reply in the same session keeps the conversation and starts the node states afresh", () => {
    const first = play(started, ...events(chatTurn()));
    const reply = play(first, { type: "turn", runId: "run2", sessionId: "s1", message: "and in cash?" });
    expect(reply.messages.map((message) => [message.id, message.role])).toEqual([
      ["run1:question", "user"],
      ["run1:answer", "assistant"],
      ["run2:question", "user"],
    ]);
    expect(reply).toMatchObject({ status: "queued", ran: {}, steps: [], tokens: 0, lastSeq: 0, waitingAt: null });
    // The first run's late repeats no longer count.
    expect(play(reply, ...events(chatTurn()))).toBe(reply);
  });

  test("a re-run from a component carries no question; a new session starts an empty conversation", () => {
    const first = play(started, ...events(chatTurn()));
    const rerun = play(first, { type: "turn", runId: "run2", sessionId: "s1" });
    expect(rerun.messages).toHaveLength(2);
    const fresh = play(first, { type: "turn", runId: "run3", sessionId: "s2", message: null });
    expect(fresh.messages).toEqual([]);
  });

  test("reset forgets everything", () => {
    expect(play(started, ...events(chatTurn()), { type: "reset" })).toEqual(idleRun);
    expect(nodeStatesOf(idleRun, NODES)).toEqual({});
  });
});

describe("after a reload", () => {
  const history = [
    { id: "m1", role: "assistant" as const, content: "Hi", runId: "run0" },
    { id: "m2", role: "user" as const, content: "fees?", runId: "run1" },
    { id: "m3", role: "assistant" as const, content: "Paid on departure [ID:0].", runId: "run1", reference },
  ];

  test("a run still going is reattached: its session's earlier messages, its question, and its events from the first catch up", () => {
    const attached = play(idleRun, { type: "attach", run: { id: "run1", sessionId: "s1", status: "running", message: "fees?" }, history: history.slice(0, 1) });
    expect(attached).toMatchObject({ runId: "run1", sessionId: "s1", status: "queued" });
    expect(nodeStatesOf(attached, NODES).generate).toEqual({ status: "waiting" });
    const caughtUp = play(attached, ...events(chatTurn().slice(0, 8)));
    expect(caughtUp.status).toBe("running");
    expect(nodeStatesOf(caughtUp, NODES)).toMatchObject({ begin: { status: "done" }, retrieval: { status: "done" }, generate: { status: "running" }, answer: { status: "waiting" } });
    expect(caughtUp.messages.map((message) => message.content)).toEqual(["Hi", "fees?", "Paid on departure [ID:0]."]);
    const finished = play(caughtUp, ...events(chatTurn().slice(8)));
    expect(finished).toMatchObject({ status: "waiting", waitingAt: "answer" });
  });

  test("a run that already ended is not shown twice: its stored messages give way to its replayed events", () => {
    const attached = play(idleRun, { type: "attach", run: { id: "run1", sessionId: "s1", status: "waiting", message: "fees?" }, history });
    const replayed = play(attached, ...events(chatTurn()));
    expect(replayed.messages.map((message) => [message.role, message.content])).toEqual([
      ["assistant", "Hi"],
      ["user", "fees?"],
      ["assistant", "Paid on departure [ID:0]."],
    ]);
    expect(replayed.status).toBe("waiting");
  });
});
