import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";

/** A loopback port that was free a moment ago (bound, read and released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Ends a child process: SIGTERM, then SIGKILL if it has not exited after `graceMs`; resolves once it is gone. */
export async function stopProcess(child: ChildProcess, graceMs = 5_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return { code: child.exitCode, signal: child.signalCode };
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  child.kill("SIGTERM");
  const killer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  try {
    return await exited;
  } finally {
    clearTimeout(killer);
  }
}

const REGISTER_TS = path.join(__dirname, "register-ts.cjs");
const SERVER_DIR = path.resolve(__dirname, "../..");

export interface TsProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Everything it printed so far, stdout and stderr interleaved. */
  output(): string;
  /** Resolves when its output matches `pattern`; rejects if it exits first or the time runs out. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves with how it ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Runs a TypeScript module of the server (path relative to server/) as its own Node process. The child gets
 * only PATH, HOME, TMPDIR and `env`, so configuration in the developer's or CI's environment (DATABASE_URL,
 * S3_ENDPOINT…) cannot change what it does.
 */
export function spawnTs(entry: string, env: Record<string, string>): TsProcess {
  const child = spawn(process.execPath, ["--enable-source-maps", "-r", REGISTER_TS, path.join(SERVER_DIR, entry)], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", TMPDIR: process.env.TMPDIR ?? "/tmp", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      resolve({ code, signal });
      for (const listener of listeners) listener();
    }),
  );
  return {
    child,
    pid: child.pid!,
    output: () => output,
    exited,
    waitForOutput(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(output)) finish();
          else if (child.exitCode !== null || child.signalCode !== null) {
            finish(new Error(`${entry} exited (code ${child.exitCode}, signal ${child.signalCode}) before printing ${pattern}:\n${output}`));
          }
        };
        const timer = setTimeout(() => finish(new Error(`${entry} did not print ${pattern} within ${timeoutMs} ms:\n${output}`)), timeoutMs);
        const finish = (error?: Error) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (error) reject(error);
          else resolve();
        };
        listeners.add(check);
        check();
      });
    },
    stop: (graceMs) => stopProcess(child, graceMs),
  };
}

export interface LaunchOptions {
  cwd?: string;
  uid?: number;
  gid?: number;
  /** What the server prints once it accepts connections. */
  ready: RegExp;
  timeoutMs?: number;
  /** What to install when the command is missing, for the error message. */
  install: string;
}

/**
 * Starts a server program and resolves once its output (stdout or stderr) matches `ready`; rejects with its
 * output when it exits first or the time runs out, killing it. Its output keeps draining afterwards.
 */
export function launchServer(command: string, args: string[], options: LaunchOptions): Promise<ChildProcess> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, uid: options.uid, gid: options.gid, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.off("exit", onEarlyExit);
      if (error) {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
        reject(error);
      } else resolve(child);
    };
    const onEarlyExit = (code: number | null, signal: string | null) => settle(new Error(`${command} exited before it was ready (code ${code}, signal ${signal}):\n${output}`));
    const timer = setTimeout(() => settle(new Error(`${command} was not ready within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onOutput = (chunk: Buffer) => {
      if (settled) return;
      output += chunk.toString();
      if (options.ready.test(output)) settle();
    };
    child.stdout!.on("data", onOutput);
    child.stderr!.on("data", onOutput);
    child.once("error", (error: NodeJS.ErrnoException) =>
      settle(error.code === "ENOENT" ? new Error(`${command} was not found; these tests need a real server: install it (Debian: ${options.install}).`) : error),
    );
    child.once("exit", onEarlyExit);
  });
}

/** Runs a program to its end; rejects with its output when it fails. */
export function runToEnd(command: string, args: string[], options: { cwd?: string; uid?: number; gid?: number; install: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, uid: options.uid, gid: options.gid, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "ENOENT" ? new Error(`${command} was not found; install it (Debian: ${options.install}).`) : error),
    );
    child.once("exit", (code) => (code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(" ")} failed (code ${code}):\n${output}`))));
  });
}
