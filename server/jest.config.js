/** Jest runs the TypeScript sources through swc, which emits the decorator metadata TypeGraphQL and TypeORM need. */
module.exports = {
  testEnvironment: "node",
  // tests/hostile drives a whole server process through the hostile-input corpus; tests/first-run starts the build;
  // tests/i18n reads the locales and both packages; client/src holds the client's unit tests, beside the code
  roots: ["<rootDir>/src", "<rootDir>/../tests/hostile", "<rootDir>/../tests/first-run", "<rootDir>/../tests/i18n", "<rootDir>/../client/src"],
  testMatch: ["**/*.test.ts"],
  setupFiles: ["reflect-metadata"],
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
