import { DomainError } from "../../platform/errors";
import type { ComponentDefinition } from "../component";
import type { RunEvent } from "../events";
import { runTestTurn, sketchFlow, type TestTurnOptions } from "../testing/run-flow";
import { testPorts } from "../testing/run-component";
import { localizedMessage } from "../../platform/messages";

/** Components that exist only for these tests: each does one observable thing. */
const Echo: ComponentDefinition = {
  name: "Echo",
  category: "core",
  icon: "",
  params: [],
  async run({ params, input, resolve }) {
    return { content: typeof params.text === "string" ? resolve(params.text) : input, values: { custom: "named" } };
  },
};
const Counter: ComponentDefinition = {
  name: "Counter",
  category: "core",
  icon: "",
  params: [],
  async run({ loopCount }) {
    return { content: String(loopCount) };
  },
};
const Streamer: ComponentDefinition = {
  name: "Streamer",
  category: "core",
  icon: "",
  params: [],
  async run({ say, speaking }) {
    if (speaking) for (const piece of ["Hel", "lo"]) say(piece);
    return { content: "Hello", reference: { total: 1, chunks: [], doc_aggs: [] } };
  },
};
/** Holds the turn until it is stopped (a component that ignores its signal), then still tries to speak. */
const Hold: ComponentDefinition = {
  name: "Hold",
  category: "core",
  icon: "",
  params: [],
  run: ({ signal, say, replaceQuestion }) =>
    new Promise((resolve) =>
      signal.addEventListener("abort", () =>
        setImmediate(() => {
          say("too late");
          replaceQuestion("changed");
          resolve({ content: "late" });
        }),
      ),
    ),
};
const Spend: ComponentDefinition = {
  name: "Spend",
  category: "core",
  icon: "",
  params: [],
  async run({ countTokens }) {
    countTokens(60);
    return { content: "spent" };
  },
};
const Fail: ComponentDefinition = {
  name: "Fail",
  category: "core",
  icon: "",
  params: [],
  async run() {
    throw new DomainError("BAD_REQUEST", "flow.components.Code.errors.noMain");
  },
};
const Crash: ComponentDefinition = {
  name: "Crash",
  category: "core",
  icon: "",
  params: [],
  async run() {
    throw new TypeError("cannot read properties of undefined");
  },
};
const Agentish: ComponentDefinition = {
  name: "Agentish",
  category: "core",
  icon: "",
  params: [],
  async run({ params, input, invoke }) {
    const used = await invoke(String(params.tool), input.toUpperCase());
    return { content: `tool said: ${used.content}` };
  },
};

const EXTRA = [Echo, Counter, Streamer, Hold, Spend, Fail, Crash, Agentish];
const run = (flow: Parameters<typeof runTestTurn>[0], state: Parameters<typeof runTestTurn>[1], request: Parameters<typeof runTestTurn>[2] = {}, options: TestTurnOptions = {}) =>
  runTestTurn(flow, state, request, { extra: EXTRA, ...options });

const started = (events: RunEvent[]) => events.flatMap((e) => (e.type === "node_started" ? [e.componentId] : []));
const deltas = (events: RunEvent[]) => events.flatMap((e) => (e.type === "message" ? [e.delta] : []));

describe("a conversation turn", () => {
  it("answers a v0.20 flow that ends on a Message with the user's words, and starts again from Begin on the next message", async () => {
    const flow = sketchFlow({ begin: { name: "Begin", down: ["message"] }, message: { name: "Message", params: { content: ["{sys.query}"] } } });
    const first = await run(flow, null, { message: "hello" });
    expect(first).toMatchObject({ status: "finished", answer: "hello" });
    expect(first.events.map((e) => e.type)).toEqual(["node_started", "node_finished", "node_started", "node_finished", "message", "message_end"]);
    const second = await run(flow, first.state, { message: "again" });
    expect(second).toMatchObject({ status: "finished", answer: "again" });
    expect(second.state.history).toEqual([
      { role: "user", content: "hello" },
      { role: "assistant", content: "hello" },
      { role: "user", content: "again" },
      { role: "assistant", content: "again" },
    ]);
    expect(second.state.globals["sys.conversation_turns"]).toBe(2);
  });

  it("speaks Begin's prologue first, pauses at the Answer, and resumes after it with the user's message", async () => {
    const flow = sketchFlow({
      begin: { name: "Begin", params: { prologue: "Hi there" }, down: ["answer"] },
      answer: { name: "Answer", down: ["echo"] },
      echo: { name: "Template", params: { content: "You said: {input}" }, down: ["answer"] },
    });
    const first = await run(flow, null);
    expect(first).toMatchObject({ status: "waiting", answer: "Hi there" });
    expect(first.events.at(-1)).toEqual({ type: "waiting_for_input", componentId: "answer" });
    const second = await run(flow, first.state, { message: "ping" });
    expect(second).toMatchObject({ status: "waiting", answer: "You said: ping" });
    expect(started(second.events)).toEqual(["echo", "answer"]);
    const third = await run(flow, second.state, { message: "pong" });
    expect(third.answer).toBe("You said: pong");
    expect(third.state.path).toEqual([["begin"], ["answer"], ["echo", "answer"], ["echo", "answer"]]);
  });

  it("says the prologue on a first turn that carries a message, as RAGFlow does, and goes on after the Answer", async () => {
    const flow = sketchFlow({
      begin: { name: "Begin", params: { prologue: "Hi there" }, down: ["answer"] },
      answer: { name: "Answer", down: ["echo"] },
      echo: { name: "Template", params: { content: "You said: {input}" }, down: ["answer"] },
    });
    const first = await run(flow, null, { message: "early" });
    expect(first).toMatchObject({ status: "waiting", answer: "Hi there" });
    expect((await run(flow, first.state, { message: "later" })).answer).toBe("You said: later");
  });

  it("answers a first message when the session already showed the greeting, and keeps the greeting in the history", async () => {
    const flow = sketchFlow({
      begin: { name: "Begin", params: { prologue: "Hi there" }, down: ["answer"] },
      answer: { name: "Answer", down: ["echo"] },
      echo: { name: "Template", params: { content: "You said: {input}" }, down: ["answer"] },
    });
    const first = await run(flow, null, { message: "early", greeted: true });
    expect(first).toMatchObject({ status: "waiting", answer: "You said: early" });
    expect(first.state.history).toEqual([
      { role: "assistant", content: "Hi there" },
      { role: "user", content: "early" },
      { role: "assistant", content: "You said: early" },
    ]);
  });

  it("lets the user try again after a failed turn, from the Answer the flow waited at", async () => {
    const flow = sketchFlow({
      begin: { name: "Begin", down: ["answer"] },
      answer: { name: "Answer", down: ["switch"] },
      switch: { name: "Switch", params: { conditions: [{ items: [{ cpn_id: "sys.query", operator: "contains", value: "boom" }], to: "fail" }], end_cpn_id: "echo" }, down: ["fail", "echo"] },
      fail: { name: "Fail", down: ["answer"] },
      echo: { name: "Template", params: { content: "ok: {sys.query}" }, down: ["answer"] },
    });
    const first = await run(flow, null);
    const failed = await run(flow, first.state, { message: "boom" });
    expect(failed.status).toBe("failed");
    expect(failed.state.waitingAt).toBe("answer");
    const retried = await run(flow, failed.state, { message: "fine" });
    expect(retried).toMatchObject({ status: "waiting", answer: "ok: fine" });
  });

  it("runs a task-style flow with Begin's typed input values, and refuses a missing required input in the runner's language", async () => {
    const flow = sketchFlow({
      begin: { name: "Begin", params: { query: [{ key: "lang", name: "Language", type: "options", options: ["French", "German"], optional: false }, { key: "n", name: "Count", type: "integer", optional: true }] }, down: ["template"] },
      template: { name: "Template", params: { content: "Translate into {begin@lang}, {begin@n} times" } },
    });
    const done = await run(flow, null, { inputs: { lang: "French", n: "3" } });
    expect(done).toMatchObject({ status: "finished", answer: "Translate into French, 3 times" });
    expect(done.state.beginInputs).toEqual({ lang: "French", n: 3 });

    const missing = await run(flow, null, { inputs: {} }, { ports: testPorts({ language: "es" }) });
    expect(missing).toMatchObject({ status: "failed", error: "Introduce Language." });
    const wrong = await run(flow, null, { inputs: { lang: "Klingon" } });
    expect(wrong).toMatchObject({ status: "failed", error: "The value of Language does not fit its type." });
  });

  it("routes a Switch to the one branch its conditions choose, and to ELSE otherwise", async () => {
    const flow = sketchFlow({
      begin: { name: "Begin", down: ["switch"] },
      switch: {
        name: "Switch",
        params: { conditions: [{ logical_operator: "and", items: [{ cpn_id: "sys.query", operator: "contains", value: "weather" }], to: "weather" }], end_cpn_id: "other" },
        down: ["weather", "other"],
      },
      weather: { name: "Message", params: { messages: ["Sunny."] } },
      other: { name: "Message", params: { messages: ["No idea."] } },
    });
    const sunny = await run(flow, null, { message: "What's the WEATHER like?" });
    expect(sunny.answer).toBe("Sunny.");
    expect(started(sunny.events)).toEqual(["begin", "switch", "weather"]);
    const other = await run(flow, null, { message: "Tell me a joke" });
    expect(other.answer).toBe("No idea.");
    expect(started(other.events)).not.toContain("weather");
  });

  it("fans out to every downstream and joins: a component waits for the upstream and references that will still run", async () => {
    const flow = sketchFlow({
      begin: { name: "Begin", down: ["a", "b1"] },
      a: { name: "Echo", params: { text: "A" }, down: ["join"] },
      b1: { name: "Echo", params: { text: "B1" }, down: ["b2"] },
      b2: { name: "Echo", params: { text: "B2" }, down: ["join"] },
      join: { name: "Template", params: { content: "{a}+{b2}" } },
    });
    const result = await run(flow, null);
    expect(started(result.events)).toEqual(["begin", "a", "b1", "b2", "join"]);
    expect(result.answer).toBe("A+B2");
  });

  it("gathers branches through a Concentrator, which the default input looks through", async () => {
    const flow = sketchFlow({
      begin: { name: "Begin", down: ["x", "y"] },
      x: { name: "Echo", params: { text: "from x" }, down: ["hub"] },
      y: { name: "Echo", params: { text: "from y" }, down: ["hub"] },
      hub: { name: "Concentrator", down: ["last"] },
      last: { name: "Template", params: { content: "got {input}" } },
    });
    const result = await run(flow, null);
    expect(started(result.events).filter((id) => id === "hub" || id === "last")).toEqual(["hub", "last"]);
    expect(result.answer).toBe("got from y");
  });

  it("does not wait for a referenced component on a branch the router did not take", async () => {
    const flow = sketchFlow({
      begin: { name: "Begin", down: ["switch"] },
      switch: { name: "Switch", params: { conditions: [{ items: [{ cpn_id: "sys.query", operator: "empty" }], to: "skipped" }], end_cpn_id: "taken" }, down: ["skipped", "taken"] },
      skipped: { name: "Echo", params: { text: "S" } },
      taken: { name: "Template", params: { content: "[{skipped}]" } },
    });
    const result = await run(flow, null, { message: "not empty" });
    expect(result).toMatchObject({ status: "finished", answer: "[]" });
  });

  it("gives each component the output of its own latest ancestor, not of a parallel branch", async () => {
    const flow = sketchFlow({
      begin: { name: "Begin", down: ["a", "b"] },
      a: { name: "Echo", params: { text: "mine" }, down: ["a2"] },
      b: { name: "Echo", params: { text: "neighbour" } },
      a2: { name: "Template", params: { content: "{input}" } },
    });
    const result = await run(flow, null);
    expect(result.state.outputs.a2.content).toBe("mine");
  });

  it("fills every kind of reference", async () => {
    const flow = sketchFlow({
      begin: { name: "Begin", params: { query: [{ key: "who", name: "Who", type: "line" }] }, down: ["x"] },
      x: { name: "Echo", params: { text: "X" }, down: ["t"] },
      t: {
        name: "Template",
        params: {
          content: "{begin@who}|{sys.query}|{sys.user_id}|{sys.conversation_turns}|{x}|{x@output}|{x@custom}|{k}|{input}|{unknown}",
          parameters: [{ key: "k", component_id: "x" }],
        },
      },
    });
    const result = await run(flow, null, { message: "q", inputs: { who: "Ada" } });
    expect(result.answer).toBe("Ada|q|test-user|1|X|X|named|X|X|{unknown}");
  });

  it("reads the flow's v0.20 variables as {env.name}, and its globals", async () => {
    const flow = { ...sketchFlow({ begin: { name: "Begin", down: ["m"] }, m: { name: "Message", params: { content: ["{env.lang} {sys.files} {custom.value}"] } } }), variables: { lang: { name: "lang", type: "string", value: "fr" } }, globals: { "custom.value": 7 } };
    expect((await run(flow, null, { message: "x" })).answer).toBe("fr  7");
  });

  it("stops a loop that repeats the same block more than 6 times, naming it in the runner's language", async () => {
    const flow = sketchFlow({ begin: { name: "Begin", down: ["a"] }, a: { name: "Echo", down: ["b"] }, b: { name: "Echo", down: ["a"] } });
    const result = await run(flow, null, {}, { ports: testPorts({ language: "zh" }) });
    expect(result.status).toBe("failed");
    expect(result.error).toBe(localizedMessage("zh", "flow.errors.tooManyLoops", { loop: "a => b => a => b", limit: 6 }));
    // 7 rounds of the block were allowed to run, the 8th not.
    expect(started(result.events).filter((id) => id === "a")).toHaveLength(7);
  });

  it("stops a turn at the step cap when the detector cannot see the loop", async () => {
    const flow = sketchFlow({ begin: { name: "Begin", down: ["a"] }, a: { name: "Echo", down: ["b"] }, b: { name: "Echo", down: ["a"] } });
    const result = await run(flow, null, {}, { limits: { maxStepsPerTurn: 15, maxBlockRepeats: 1000 } });
    expect(result).toMatchObject({ status: "failed", error: "The flow ran 15 components in one turn and was stopped: check its loops." });
    expect(started(result.events)).toHaveLength(15);
  });

  it("loops back through a Switch while a component counts its own runs (RewriteQuestion's and ExeSQL's loop)", async () => {
    const flow = sketchFlow({
      begin: { name: "Begin", down: ["count"] },
      count: { name: "Counter", down: ["switch"] },
      switch: { name: "Switch", params: { conditions: [{ items: [{ cpn_id: "count", operator: "lt", value: "3" }], to: "count" }], end_cpn_id: "done" }, down: ["count", "done"] },
      done: { name: "Template", params: { content: "counted {count}" } },
    });
    const result = await run(flow, null);
    expect(result).toMatchObject({ status: "finished", answer: "counted 3" });
    expect(result.state.counters.count).toBe(3);
  });

  it("streams what a speaking component says, and its Answer does not say it again but passes on its reference", async () => {
    const flow = sketchFlow({
      begin: { name: "Begin", down: ["answer"] },
      answer: { name: "Answer", params: { post_answers: ["Anything else?"] }, down: ["gen"] },
      gen: { name: "Streamer", down: ["answer"] },
    });
    const first = await run(flow, null);
    const second = await run(flow, first.state, { message: "hi" });
    expect(deltas(second.events)).toEqual(["Hel", "lo", "\nAnything else?"]);
    expect(second.answer).toBe("Hello\nAnything else?");
    expect(second.reference).toEqual({ total: 1, chunks: [], doc_aggs: [] });
    expect(second.events.find((e) => e.type === "message_end")).toEqual({ type: "message_end", reference: { total: 1, chunks: [], doc_aggs: [] } });
    expect(second.state.references).toHaveLength(1);
  });

  it("tells watchers each component's inputs, output, time and tokens", async () => {
    const flow = sketchFlow({
      begin: { name: "Begin", params: { query: [{ key: "topic", name: "Topic", type: "line" }] }, down: ["spend"] },
      spend: { name: "Spend", params: { query: [{ type: "reference", component_id: "begin@topic" }, { type: "input", value: "fixed" }] } },
    });
    const result = await run(flow, null, { inputs: { topic: "cats" } });
    const finished = result.events.find((e) => e.type === "node_finished" && e.componentId === "spend");
    expect(finished).toMatchObject({
      componentName: "Spend",
      inputs: [{ component_id: "begin@topic", content: "cats" }, { component_id: "", content: "fixed" }],
      output: { content: "spent" },
      error: null,
      tokens: 60,
    });
    expect((finished as { elapsedMs: number }).elapsedMs).toBeGreaterThanOrEqual(0);
  });

  it("is cancelled mid-run by its signal, even while a component holds it", async () => {
    const controller = new AbortController();
    // Hold ends the flow, so it speaks to the user if it can.
    const flow = sketchFlow({ begin: { name: "Begin", down: ["hold", "other"] }, hold: { name: "Hold" }, other: { name: "Echo", down: ["after"] }, after: { name: "Echo" } });
    const result = await run(flow, null, { message: "go" }, {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === "node_started" && event.componentId === "hold") setImmediate(() => controller.abort());
      },
    });
    expect(result.status).toBe("cancelled");
    expect(started(result.events)).not.toContain("after");
    expect(result.events.some((e) => e.type === "message_end")).toBe(false);
    // The abandoned component's late words and changes reach no one.
    await new Promise((resolve) => setImmediate(resolve));
    expect(deltas(result.events)).toEqual([]);
    expect(result.state.history).toEqual([{ role: "user", content: "go" }]);
  });

  it("fails a turn that outlives its time budget", async () => {
    const flow = sketchFlow({ begin: { name: "Begin", down: ["hold"] }, hold: { name: "Hold" } });
    const result = await run(flow, null, {}, { limits: { timeBudgetMs: 200 } });
    expect(result).toMatchObject({ status: "failed", error: "The flow took longer than 1 seconds and was stopped." });
  });

  it("fails a turn that spends more model tokens than its budget", async () => {
    const flow = sketchFlow({ begin: { name: "Begin", down: ["one"] }, one: { name: "Spend", down: ["two"] }, two: { name: "Spend", down: ["three"] }, three: { name: "Echo" } });
    const result = await run(flow, null, {}, { limits: { tokenBudget: 100 } });
    expect(result).toMatchObject({ status: "failed", error: "The flow used more than 100 model tokens in one turn and was stopped." });
    expect(started(result.events)).not.toContain("three");
  });

  it("re-runs the last turn from a component, keeping the outputs of those before it", async () => {
    const flow = sketchFlow({
      begin: { name: "Begin", down: ["answer"] },
      answer: { name: "Answer", down: ["first"] },
      first: { name: "Counter", down: ["second"] },
      second: { name: "Template", params: { content: "first ran {first} time(s)" }, down: ["answer"] },
    });
    const opening = await run(flow, null);
    const turn = await run(flow, opening.state, { message: "go" });
    expect(turn.answer).toBe("first ran 1 time(s)");
    const again = await run(flow, turn.state, { fromComponent: "second" });
    expect(started(again.events)).toEqual(["second", "answer"]);
    expect(again).toMatchObject({ status: "waiting", answer: "first ran 1 time(s)" });
    expect(again.state.history.filter((m) => m.role === "assistant")).toHaveLength(2);
    const unknown = await run(flow, turn.state, { fromComponent: "nope" });
    expect(unknown).toMatchObject({ status: "failed", error: "There is no component nope in this flow." });
  });

  it("fails cleanly with a component's translated error, and with an unexpected one without its details", async () => {
    const failing = sketchFlow({ begin: { name: "Begin", down: ["fail"] }, fail: { name: "Fail" } });
    const result = await run(failing, null, {}, { ports: testPorts({ language: "zh" }) });
    expect(result).toMatchObject({ status: "failed", error: "代码必须定义函数 main(args)。" });
    expect(result.events.find((e) => e.type === "node_finished" && e.componentId === "fail")).toMatchObject({ error: "代码必须定义函数 main(args)。", output: null });

    const errorLog = jest.spyOn(console, "error").mockImplementation(() => undefined);
    const crashing = await run(sketchFlow({ begin: { name: "Begin", down: ["crash"] }, crash: { name: "Crash" } }), null);
    errorLog.mockRestore();
    expect(crashing.status).toBe("failed");
    expect(crashing.error).toMatch(/reference/i);
    expect(crashing.error).not.toMatch(/undefined/);

    const unknown = await run(sketchFlow({ begin: { name: "Begin", down: ["x"] }, x: { name: "Teleport" } }), null);
    expect(unknown).toMatchObject({ status: "failed", error: "There is no component called Teleport." });
  });

  it("runs an Iteration's body once per item, and lets a component invoke another on an input", async () => {
    const iterating = sketchFlow({
      begin: { name: "Begin", params: { prologue: "red, green,blue" }, down: ["each"] },
      each: { name: "Iteration", params: { delimiter: "," } },
      wrap: { name: "Template", params: { content: "<{input}>" }, parent: "each", down: ["shout"] },
      shout: { name: "Agentish", params: { tool: "tool" }, parent: "each" },
      tool: { name: "Template", params: { content: "{input}!" } },
    });
    const result = await run(iterating, null);
    expect(result).toMatchObject({ status: "finished", answer: "tool said: <RED>!\ntool said: <GREEN>!\ntool said: <BLUE>!" });
    expect(result.state.outputs.each.values).toEqual({ results: ["tool said: <RED>!", "tool said: <GREEN>!", "tool said: <BLUE>!"] });
  });

  it("speaks the next queued Answer on the following call when two were reached", async () => {
    const flow = sketchFlow({
      begin: { name: "Begin", down: ["one", "two"] },
      one: { name: "Echo", params: { text: "first" }, down: ["a1"] },
      two: { name: "Echo", params: { text: "second" }, down: ["a2"] },
      a1: { name: "Answer" },
      a2: { name: "Answer" },
    });
    const first = await run(flow, null);
    expect(first).toMatchObject({ status: "waiting", answer: "first" });
    const second = await run(flow, first.state, { message: "next" });
    expect(second.answer).toBe("second");
  });

  it("never changes the state it was given", async () => {
    const flow = sketchFlow({ begin: { name: "Begin", down: ["message"] }, message: { name: "Message", params: { content: ["{sys.query}"] } } });
    const first = await run(flow, null, { message: "one" });
    const snapshot = structuredClone(first.state);
    await run(flow, first.state, { message: "two" });
    expect(first.state).toEqual(snapshot);
  });
});
