import { Worker } from "node:worker_threads";
import { DomainError } from "../../../platform/errors";

/**
 * The Code component's sandbox: QuickJS compiled to WebAssembly (quickjs-emscripten), in a worker thread of its
 * own. QuickJS has no file system, network, timers nor host objects, so the script sees only the JSON it is given;
 * its memory limit stops an allocation that would not end and its interrupt deadline a loop that would not end.
 * The thread keeps a slow script off the server's own thread, and if QuickJS ever failed to stop in time, the
 * thread is ended (a fresh one serves the next script). Scripts run one at a time, each in a fresh context.
 * The thread's code is a few lines of CommonJS given by source, so it runs the same compiled and under the tests.
 */
export const CODE_LIMITS = { timeMs: 2000, memoryBytes: 32 * 1024 * 1024, stackBytes: 1024 * 1024 };
/** How long past its deadline a script may hold the thread before the thread is ended. */
const GRACE_MS = 1000;

const THREAD_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { getQuickJS, shouldInterruptAfterDeadline } = require(workerData.quickjs);
const { timeMs, memoryBytes, stackBytes } = workerData.limits;
const described = (error) => (error && typeof error === "object" ? { name: String(error.name || ""), message: String(error.message || "") } : { name: "", message: String(error) });
parentPort.on("message", async ({ id, script }) => {
  let runtime, vm;
  try {
    const QuickJS = await getQuickJS();
    runtime = QuickJS.newRuntime();
    runtime.setMemoryLimit(memoryBytes);
    runtime.setMaxStackSize(stackBytes);
    runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + timeMs));
    vm = runtime.newContext();
    const evaluated = vm.evalCode(script, "code.js");
    if (evaluated.error) {
      const error = vm.dump(evaluated.error);
      evaluated.error.dispose();
      return parentPort.postMessage({ id, error: described(error) });
    }
    runtime.executePendingJobs();
    const state = vm.getPromiseState(evaluated.value);
    evaluated.value.dispose();
    if (state.type === "pending") return parentPort.postMessage({ id, pending: true });
    if (state.type === "rejected") {
      const error = vm.dump(state.error);
      state.error.dispose();
      return parentPort.postMessage({ id, error: described(error) });
    }
    const json = vm.dump(state.value);
    state.value.dispose();
    parentPort.postMessage({ id, json: typeof json === "string" ? json : "null" });
  } catch (error) {
    parentPort.postMessage({ id, error: described(error) });
  } finally {
    if (vm) vm.dispose();
    if (runtime) runtime.dispose();
  }
});
`;

type Reply = { id: number; json?: string; pending?: true; error?: { name: string; message: string } };

let thread: Worker | null = null;
let nextId = 0;
let queue: Promise<unknown> = Promise.resolve();

function startThread(): Worker {
  const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { quickjs: require.resolve("quickjs-emscripten"), limits: CODE_LIMITS } });
  // An idle sandbox does not keep the process alive.
  worker.unref();
  worker.on("error", (error) => console.error("[flows] the Code sandbox thread failed:", error));
  worker.on("exit", () => {
    if (thread === worker) thread = null;
  });
  return worker;
}

function sandboxError(error: { name: string; message: string }): DomainError {
  const { name, message } = error;
  if (name === "ReferenceError" && message === "main") return new DomainError("BAD_REQUEST", "flow.components.Code.errors.noMain");
  if (name === "InternalError" && /interrupted/i.test(message)) return timeoutError();
  if (/out of memory/i.test(message) || (name === "InternalError" && /stack overflow/i.test(message))) {
    return new DomainError("BAD_REQUEST", "flow.components.Code.errors.memory", { megabytes: CODE_LIMITS.memoryBytes / (1024 * 1024) });
  }
  return new DomainError("BAD_REQUEST", "flow.components.Code.errors.failed", { reason: name ? `${name}: ${message}` : message });
}

const timeoutError = () => new DomainError("BAD_REQUEST", "flow.components.Code.errors.timeout", { seconds: CODE_LIMITS.timeMs / 1000 });

function runInThread(script: string): Promise<unknown> {
  const worker = (thread ??= startThread());
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    const finish = (settle: () => void) => {
      clearTimeout(backstop);
      worker.off("message", onMessage);
      worker.off("exit", onExit);
      settle();
    };
    const onMessage = (reply: Reply) => {
      if (reply.id !== id) return;
      if (reply.error) finish(() => reject(sandboxError(reply.error!)));
      else if (reply.pending) finish(() => reject(new DomainError("BAD_REQUEST", "flow.components.Code.errors.pending")));
      else finish(() => resolve(JSON.parse(reply.json ?? "null") as unknown));
    };
    const onExit = () => finish(() => reject(new DomainError("BAD_REQUEST", "flow.components.Code.errors.failed", { reason: "sandbox stopped" })));
    const backstop = setTimeout(() => {
      finish(() => reject(timeoutError()));
      void worker.terminate();
    }, CODE_LIMITS.timeMs + GRACE_MS);
    worker.on("message", onMessage);
    worker.on("exit", onExit);
    worker.postMessage({ id, script });
  });
}

/** Runs `main(args)` of a script in the sandbox and gives back its result (JSON in, JSON out). */
export function runSandboxed(code: string, args: Record<string, unknown>): Promise<unknown> {
  // JSON is a JavaScript expression: the arguments enter as data, never as code.
  const script = `${code}\n;if (typeof main !== "function") throw new ReferenceError("main");\n(async () => { const r = await main(${JSON.stringify(args)}); return r === undefined ? "null" : JSON.stringify(r); })()`;
  const run = queue.then(() => runInThread(script));
  queue = run.catch(() => undefined);
  return run;
}
