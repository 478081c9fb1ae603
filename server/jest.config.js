/** Jest runs the TypeScript sources through swc, which emits the decorator metadata TypeGraphQL and TypeORM need. */
module.exports = {
  testEnvironment: "node",
  // tests/hostile drives a whole server process through the hostile-input corpus; tests/first-run starts the build;
  // tests/i18n reads the locales and both packages
  roots: ["<rootDir>/src", "<rootDir>/../tests/hostile", "<rootDir>/../tests/first-run", "<rootDir>/../tests/i18n"],
  testMatch: ["**/*.test.ts"],
  setupFiles: ["reflect-metadata"],
  // One migrated database for the run, which every test server copies (server/src/testing/database-template.ts).
  globalSetup: "<rootDir>/src/testing/global-setup.ts",
  globalTeardown: "<rootDir>/src/testing/global-teardown.ts",
  testTimeout: 60000,
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
