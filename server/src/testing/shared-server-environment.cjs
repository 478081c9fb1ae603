/**
 * Jest's node environment, plus the worker's shared test server (testing/app.ts, sharedTestServer). Jest gives each
 * test file a fresh module registry and global object, so what lives across the files of one worker is this module:
 * it starts one server process (shared-server.child.ts) when a file first asks, and the process stops itself when
 * the worker exits. The server runs apart from the test's realm, so the suites reach it over HTTP only.
 */
const { spawn } = require("node:child_process");
const path = require("node:path");
const { TestEnvironment } = require("jest-environment-node");

const SERVER_DIR = path.resolve(__dirname, "../..");

/** @type {Promise<{ url: string, dataDir: string }> | undefined} */
let shared;
/** Held for the worker's life: were the process object collected, its channel would close and the server stop. */
let sharedProcess;

function startSharedServer() {
  const child = spawn(process.execPath, ["--enable-source-maps", "-r", path.join(__dirname, "register-ts.cjs"), path.join(__dirname, "shared-server.child.ts")], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR ?? "/tmp", CAIRN_TEST_DATABASE_TEMPLATE: process.env.CAIRN_TEST_DATABASE_TEMPLATE ?? "" },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  sharedProcess = child;
  // Neither the process nor its channel keeps the worker alive; when the worker exits, the channel closes and
  // the server closes (its data directory with it).
  child.unref();
  child.channel?.unref();
  return new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code, signal) => {
      if (sharedProcess === child) [shared, sharedProcess] = [undefined, undefined];
      const message = `the shared test server exited (code ${code}, signal ${signal})`;
      process.stderr.write(`${message}\n`);
      reject(new Error(message));
    });
  });
}

class SharedServerEnvironment extends TestEnvironment {
  async setup() {
    await super.setup();
    this.global.cairnSharedServer = () => (shared ??= startSharedServer());
  }
}

module.exports = SharedServerEnvironment;
