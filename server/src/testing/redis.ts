import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, stopProcess } from "./processes";

export interface TestRedis {
  /** redis://127.0.0.1:PORT */
  url: string;
  port: number;
  stop(): Promise<void>;
}

const REDIS_SERVER = process.env.REDIS_SERVER_BIN ?? "redis-server";
const START_TIMEOUT_MS = 10_000;

/**
 * A real, throw-away `redis-server` on a free loopback port, with persistence switched off and its
 * working directory in a temporary folder. Missing redis-server is a failure, never a skip: CI installs it
 * (Debian: `apt-get install redis-server`), and a skipped Redis test would hide the multi-process setup.
 */
export async function startRedis(): Promise<TestRedis> {
  // The free port is found by binding and releasing it, so another process can take it in between;
  // redis-server then exits with "Address already in use" and we try the next one.
  let lastError: Error | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-redis-"));
    try {
      const child = await launch(port, dir);
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        stop: async () => {
          await stopProcess(child);
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch (error) {
      fs.rmSync(dir, { recursive: true, force: true });
      lastError = error as Error;
      if (!/already in use/i.test(lastError.message)) break;
    }
  }
  throw lastError;
}

function launch(port: number, dir: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      REDIS_SERVER,
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, "--daemonize", "no"],
      { cwd: dir, stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.off("exit", onEarlyExit);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      reject(error);
    };
    const onEarlyExit = (code: number | null, signal: string | null) => {
      fail(new Error(`redis-server exited before it was ready (code ${code}, signal ${signal}):\n${output}`));
    };
    const timer = setTimeout(
      () => fail(new Error(`redis-server did not become ready within ${START_TIMEOUT_MS} ms:\n${output}`)),
      START_TIMEOUT_MS,
    );
    const onOutput = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        child.off("exit", onEarlyExit);
        child.stdout!.removeAllListeners("data");
        child.stderr!.removeAllListeners("data");
        // Keep draining its output so a chatty server never blocks on a full pipe.
        child.stdout!.resume();
        child.stderr!.resume();
        resolve(child);
      }
    };
    child.stdout!.on("data", onOutput);
    child.stderr!.on("data", onOutput);
    child.once("error", (error: NodeJS.ErrnoException) => {
      fail(
        error.code === "ENOENT"
          ? new Error(
              `redis-server was not found (tried to run "${REDIS_SERVER}"). The Redis tests need a real server: ` +
                `install it (Debian/Ubuntu: apt-get install redis-server) or point REDIS_SERVER_BIN at the binary.`,
            )
          : error,
      );
    });
    child.once("exit", onEarlyExit);
  });
}
