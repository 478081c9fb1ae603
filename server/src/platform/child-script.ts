import path from "node:path";

/**
 * How to start one of the server's own modules as a child process: the compiled `.js` beside the caller
 * in a build, or the TypeScript source under the test runner, compiled as it loads by the hook the tests
 * use (src/testing/register-ts.cjs).
 * @param callerFilename the caller's `__filename`
 * @param script the module's path relative to the caller's folder, without extension
 */
export function childScript(callerFilename: string, script: string): { entry: string; execArgv: string[] } {
  const extension = path.extname(callerFilename);
  const entry = path.join(path.dirname(callerFilename), `${script}${extension}`);
  if (extension !== ".ts") return { entry, execArgv: [] };
  const sources = path.resolve(__dirname, "..");
  return { entry, execArgv: ["-r", path.join(sources, "testing", "register-ts.cjs")] };
}
