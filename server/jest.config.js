/** Jest runs the TypeScript sources through swc, which emits the decorator metadata TypeGraphQL and TypeORM need. */
const project = {
  // Node's, plus one test server per worker that suites may share (src/testing/app.ts, sharedTestServer)
  testEnvironment: "<rootDir>/src/testing/shared-server-environment.cjs",
  // tests/hostile drives a whole server process through the hostile-input corpus; tests/first-run starts the build;
  // tests/i18n reads the locales and both packages; client/src holds the client's unit tests, beside the code
  roots: ["<rootDir>/src", "<rootDir>/../tests/hostile", "<rootDir>/../tests/first-run", "<rootDir>/../tests/i18n", "<rootDir>/../client/src"],
  testMatch: ["**/*.test.ts"],
  setupFiles: ["reflect-metadata"],
  transform: {
    "^.+\\.ts$": ["@swc/jest", {
      jsc: {
        parser: { syntax: "typescript", decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: "es2022",
      },
      module: { type: "commonjs" },
    }],
  },
};

/**
 * Suites that hold a server to a time bound (health checks under the hostile corpus, the first parse, a bystander's
 * answer during a flood), and the scale-out proof, whose four processes would crowd the others (and a worker that
 * cannot renew its job's lock under that load looks dead): they run after the others, one at a time, with the
 * machine to themselves (`npm test` runs the "serial" project with --runInBand, the "parallel" one on two workers; scripts/test.mjs).
 */
const SERIAL = ["tests/hostile/hostile.test.ts", "tests/first-run/first-run.test.ts", "server/src/retrieval/fairness.test.ts", "server/src/scale-out.test.ts"];
const pathPattern = (file) => `/${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`;

module.exports = {
  // a global option: Jest reads it here, not in a project
  testTimeout: 60000,
  // Each suite's modules stay in its worker's heap (about 10 MB a suite, more with test servers): a worker past this
  // is replaced between suites, so that a long run never reaches Node's heap limit.
  workerIdleMemoryLimit: "1536MB",
  // One migrated database for the run, which every test server copies (server/src/testing/database-template.ts).
  globalSetup: "<rootDir>/src/testing/global-setup.ts",
  globalTeardown: "<rootDir>/src/testing/global-teardown.ts",
  projects: [
    { ...project, displayName: "parallel", testPathIgnorePatterns: ["/node_modules/", ...SERIAL.map(pathPattern)] },
    { ...project, displayName: "serial", testMatch: SERIAL.map((file) => `**/${file}`) },
  ],
};
