/**
 * `node -r server/src/testing/register-ts.cjs some.ts`: runs the server's TypeScript sources in a child
 * process with the same swc transform jest uses (decorator metadata included), compiled file by file as
 * they are required. Tests spawn real processes (a worker, a second server) from the current sources this
 * way: no build step to wait for or forget, and nothing written to server/dist while someone else builds.
 */
const fs = require("node:fs");
const { transformSync } = require("@swc/core");

const options = {
  jsc: {
    parser: { syntax: "typescript", decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: "es2022",
  },
  module: { type: "commonjs" },
  sourceMaps: "inline",
  swcrc: false,
};

require.extensions[".ts"] = function compileTypeScript(module, filename) {
  const { code } = transformSync(fs.readFileSync(filename, "utf8"), { ...options, filename });
  module._compile(code, filename);
};
