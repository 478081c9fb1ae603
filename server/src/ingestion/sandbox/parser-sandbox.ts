import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { modelCacheDirectory } from "../../models/builtin/lexicon";
import { childScript } from "../../platform/child-script";
import { MEGABYTE } from "../parsers/limits";
import type { LogMessage } from "../parse-log";
import type { Chunked } from "../chunking";
import { ParseError, type ParsedDocument } from "../types";
import type { Preview } from "../preview/preview";
import { reviveBuffers, type ParsePhase, type ParseReply, type ParseRequest, type PreviewRequest } from "./messages";

/**
 * Every file is parsed in a process of its own (parse.child.ts), never in the server: a file that exhausts
 * memory, loops, or crashes a decoder (tesseract.js on an undecodable picture, a zip bomb in a workbook) ends
 * that process and fails its document with a reason, while the server, other documents and other tenants
 * carry on. Each parse is watched for:
 * - memory: the process's resident size (the V8 heap, buffers and WebAssembly alike), sampled every 100 ms;
 *   the V8 heap alone is also capped by --max-old-space-size;
 * - time: the whole document, and each step (a page, a sheet, a picture), which a parser marks by reporting
 *   progress; a parser that stops reporting has stopped responding.
 * A process that failed is ended (so its memory is returned), and one that parsed many files is replaced.
 * Idle processes are kept for a while: starting one costs a fraction of a second, OCR's models a second more.
 * At most `parseProcesses` files are parsed at once; more parse jobs wait for a process rather than start
 * one each (a process holds its parsers' memory, and more of them than cores parse no faster). A preview,
 * which someone is waiting to see, never waits behind them.
 */

export interface SandboxLimits {
  /** The longest one document may take. */
  documentMs: number;
  /** The longest between two progress reports of a parser. */
  stepMs: number;
  /** Resident memory of one parse process. */
  memoryBytes: number;
  /** The longest a preview may take (30 s when not given: someone waits for it, and a real file takes a few seconds). */
  previewMs?: number;
}

/** What the parse process is asked (see ParseRequest), with how to follow and stop it. */
export interface SandboxParse extends Omit<ParseRequest, "type" | "data"> {
  data: Buffer;
  signal: AbortSignal;
  progress(phase: ParsePhase, fraction: number, message?: LogMessage): void;
}

export interface SandboxResult {
  document: ParsedDocument;
  /** Present when the parse process also chunked the document; its blocks then stayed there. */
  chunked?: Chunked;
}

const MEMORY_SAMPLE_MS = 100;
const IDLE_MS = 60_000;
const PARSES_PER_PROCESS = 200;
const PAGE_SIZE = 4096;
const PARSE_NICENESS = 10;
const PREVIEW_MS = 30_000;

/** Resident bytes of a process, from /proc (Linux); null where that cannot be read. */
function residentBytes(pid: number): number | null {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/statm`, "latin1").split(" ")[1]) * PAGE_SIZE;
  } catch {
    return null;
  }
}

/** Failures that end the process: its memory or state cannot be trusted for another file. */
const LIMIT_REASONS = new Set(["errors.parsing.timeLimit", "errors.parsing.stoppedResponding", "errors.parsing.outOfMemory", "errors.parsing.crashed", "errors.parsing.parserFailed", "preview.reason.timeLimit"]);

const because = (messageKey: string, params: Record<string, unknown> = {}) => ParseError.because(messageKey, params);

class ParseProcess {
  readonly child: ChildProcess;
  parses = 0;
  idleTimer?: NodeJS.Timeout;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(limits: SandboxLimits) {
    const { entry, execArgv } = childScript(__filename, "parse.child");
    // the V8 heap gets most of the memory; buffers, WebAssembly (OCR) and code the rest
    const heapMb = Math.max(128, Math.floor((limits.memoryBytes * 0.75) / MEGABYTE));
    this.child = fork(entry, [], {
      execArgv: [...execArgv, `--max-old-space-size=${heapMb}`],
      env: { ...process.env, CAIRN_MODEL_CACHE: modelCacheDirectory() },
      serialization: "advanced",
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    // Below the server's priority: a parse that takes a core for minutes must not slow the answers to requests.
    if (this.child.pid) os.setPriority(this.child.pid, PARSE_NICENESS);
    this.exited = new Promise((resolve) => this.child.once("exit", (code, signal) => resolve({ code, signal })));
    // a failed send (the process just died) is reported by its exit
    this.child.on("error", () => undefined);
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  kill(): void {
    if (this.alive) this.child.kill("SIGKILL");
  }
}

export class ParserSandbox {
  private readonly idle: ParseProcess[] = [];
  private readonly processes = new Set<ParseProcess>();
  /** Parses running now, and those waiting for one of them to end. */
  private parsing = 0;
  private readonly waitingParses: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly limits: SandboxLimits,
    private readonly parseProcesses = Infinity,
  ) {}

  /** Parses (and chunks) one file in a parse process; every way it can fail becomes a ParseError with a reason. */
  async parse(request: SandboxParse): Promise<SandboxResult> {
    if (this.closed) throw new Error("The parser sandbox is closed");
    request.signal.throwIfAborted();
    await this.parseSlot(request.signal);
    try {
      // cancelled while it waited for its turn
      request.signal.throwIfAborted();
      const { signal, progress, ...asked } = request;
      const result = await this.inProcess(
        { type: "parse", ...asked },
        {
          signal,
          progress,
          parser: request.parser,
          timeMs: this.limits.documentMs,
          timeLimit: () => because("errors.parsing.timeLimit", { minutes: Math.round(this.limits.documentMs / 60_000) || 1 }),
          stepMs: this.limits.stepMs,
        },
        (reply) => (reply.type === "parsed" ? { document: reply.document, chunked: reply.chunked } : undefined),
      );
      reviveBuffers(result);
      return result;
    } finally {
      this.endParse();
    }
  }

  /** Counts this parse in, or waits until a running one hands its place over (or the parse is cancelled meanwhile). */
  private async parseSlot(signal: AbortSignal): Promise<void> {
    if (this.parsing < this.parseProcesses) {
      this.parsing += 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const index = this.waitingParses.indexOf(go);
        if (index >= 0) this.waitingParses.splice(index, 1);
        reject(signal.reason);
      };
      const go = () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.waitingParses.push(go);
    });
  }

  /** The place of a parse that ended goes to the first waiting one, if any. */
  private endParse(): void {
    const next = this.waitingParses.shift();
    if (next) next();
    else this.parsing -= 1;
  }

  /**
   * Previews one file (ingestion/preview) in a parse process, watched for memory and for the preview's time limit;
   * a file that passes one fails with a ParseError whose reason names it.
   */
  async preview(data: Buffer, fileName: string, signal: AbortSignal = new AbortController().signal): Promise<Preview> {
    if (this.closed) throw new Error("The parser sandbox is closed");
    signal.throwIfAborted();
    return this.inProcess(
      { type: "preview", data, fileName },
      {
        signal,
        progress: () => undefined,
        parser: "preview",
        timeMs: this.limits.previewMs ?? PREVIEW_MS,
        timeLimit: () => because("preview.reason.timeLimit", { seconds: Math.round((this.limits.previewMs ?? PREVIEW_MS) / 1000) }),
      },
      (reply) => (reply.type === "previewed" ? reply.preview : undefined),
    );
  }

  /** Runs one request in a parse process, which is kept for the next when the request ended in a way that leaves it sound. */
  private async inProcess<T>(message: ParseRequest | PreviewRequest, watch: Watch, settle: (reply: ParseReply) => T | undefined): Promise<T> {
    const worker = this.take();
    let reusable = false;
    try {
      const result = await this.run(worker, message, watch, settle);
      reusable = true;
      return result;
    } catch (error) {
      // a file the parser refused with a reason leaves the process as it was; any other end may not have
      reusable = error instanceof ParseError && error.reason?.messageKey !== undefined && !LIMIT_REASONS.has(error.reason.messageKey);
      throw error;
    } finally {
      this.release(worker, reusable);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.processes];
    for (const worker of all) {
      clearTimeout(worker.idleTimer);
      worker.kill();
    }
    await Promise.all(all.map((worker) => worker.exited));
  }

  /** Starts a parse process ahead of the first file, which then does not wait for one to load its parsers. */
  warmUp(): void {
    if (!this.closed && this.idle.length === 0) this.keepIdle(this.take());
  }

  /** Processes running now (for tests and the hostile-input benchmark). */
  get pids(): number[] {
    return [...this.processes].filter((worker) => worker.alive).map((worker) => worker.child.pid!);
  }

  private take(): ParseProcess {
    let worker = this.idle.pop();
    while (worker && !worker.alive) worker = this.idle.pop();
    if (worker) {
      clearTimeout(worker.idleTimer);
      return worker;
    }
    worker = new ParseProcess(this.limits);
    this.processes.add(worker);
    const started = worker;
    void worker.exited.then(() => {
      this.processes.delete(started);
      const index = this.idle.indexOf(started);
      if (index >= 0) this.idle.splice(index, 1);
    });
    return worker;
  }

  private release(worker: ParseProcess, reusable: boolean): void {
    worker.parses += 1;
    if (!reusable || this.closed || worker.parses >= PARSES_PER_PROCESS || !worker.alive) {
      worker.kill();
      return;
    }
    this.keepIdle(worker);
  }

  private keepIdle(worker: ParseProcess): void {
    worker.idleTimer = setTimeout(() => worker.kill(), IDLE_MS);
    worker.idleTimer.unref();
    this.idle.push(worker);
  }

  private run<T>(worker: ParseProcess, message: ParseRequest | PreviewRequest, watch: Watch, settle: (reply: ParseReply) => T | undefined): Promise<T> {
    const { limits } = this;
    return new Promise<T>((resolve, reject) => {
      let stopped: unknown;
      const stop = (error: unknown) => {
        stopped ??= error;
        worker.kill();
      };
      const timeTimer = setTimeout(() => stop(watch.timeLimit()), watch.timeMs);
      const stepTimer = watch.stepMs === undefined ? undefined : setTimeout(() => stop(because("errors.parsing.stoppedResponding", { seconds: Math.round(watch.stepMs! / 1000) })), watch.stepMs);
      const memoryTimer = setInterval(() => {
        const resident = residentBytes(worker.child.pid!);
        if (resident !== null && resident > limits.memoryBytes) stop(outOfMemory(limits));
      }, MEMORY_SAMPLE_MS);
      const onAbort = () => stop(watch.signal.reason);
      watch.signal.addEventListener("abort", onAbort, { once: true });

      const finish = (outcome: { result: T } | { error: unknown }) => {
        clearTimeout(timeTimer);
        clearTimeout(stepTimer);
        clearInterval(memoryTimer);
        watch.signal.removeEventListener("abort", onAbort);
        worker.child.off("message", onMessage);
        worker.child.off("exit", onExit);
        if ("result" in outcome) resolve(outcome.result);
        else reject(outcome.error);
      };
      const onMessage = (reply: ParseReply) => {
        if (reply.type === "progress") {
          stepTimer?.refresh();
          watch.progress(reply.phase, reply.fraction, reply.message);
        } else if (reply.type === "failed") {
          finish({ error: reply.reason ? new ParseError(reply.reason) : because("errors.parsing.parserFailed", { parser: watch.parser }) });
        } else {
          const result = settle(reply);
          if (result !== undefined) finish({ result });
        }
      };
      const onExit = (_code: number | null, signal: NodeJS.Signals | null) => {
        // V8 aborts a process whose heap is exhausted
        finish({ error: stopped ?? (signal === "SIGABRT" ? outOfMemory(limits) : because("errors.parsing.crashed")) });
      };
      worker.child.on("message", onMessage);
      worker.child.on("exit", onExit);

      worker.child.send(message, (error) => {
        if (error) stop(because("errors.parsing.crashed"));
      });
    });
  }
}

/** How one request in a parse process is followed and stopped. */
interface Watch {
  signal: AbortSignal;
  progress(phase: ParsePhase, fraction: number, message?: LogMessage): void;
  /** The parser's name, for a failure without a reason. */
  parser: string;
  /** The longest the whole request may take, and the failure past it. */
  timeMs: number;
  timeLimit(): ParseError;
  /** The longest between two progress reports; none for a request that reports none. */
  stepMs?: number;
}

function outOfMemory(limits: SandboxLimits): ParseError {
  return because("errors.parsing.outOfMemory", { limit: Math.round(limits.memoryBytes / MEGABYTE) });
}
