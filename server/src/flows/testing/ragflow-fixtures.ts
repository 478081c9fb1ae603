import fs from "node:fs";
import path from "node:path";

/**
 * RAGFlow v0.14's own flows, copied unchanged from its repository (agent/templates/*.json as `templates-*.json`,
 * and agent/test/dsl_examples/*.json) into the tests' sources, so that every test run in CI reads them: the import
 * and run tests prove that each of them imports and runs.
 */
export const RAGFLOW_V014_DIR = path.join(__dirname, "ragflow-v0.14");

/** The fixture files, relative to RAGFLOW_V014_DIR: the templates, then the DSL examples. */
export function ragflowFixtureFiles(): string[] {
  const templates = fs.readdirSync(RAGFLOW_V014_DIR).filter((name) => name.endsWith(".json"));
  const examples = fs.readdirSync(path.join(RAGFLOW_V014_DIR, "dsl_examples")).filter((name) => name.endsWith(".json")).map((name) => `dsl_examples/${name}`);
  return [...templates.sort(), ...examples.sort()];
}

export function readRagflowFixture(file: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(RAGFLOW_V014_DIR, file), "utf8")) as unknown;
}

/** The DSL RAGFlow v0.24's HTTP tests create their agent with (v0.20+ format: `{sys.query}`, a flow that ends on a Message). */
export const RAGFLOW_MINIMAL_DSL = {
  components: {
    begin: { obj: { component_name: "Begin", params: {} }, downstream: ["message"], upstream: [] },
    message: { obj: { component_name: "Message", params: { content: ["{sys.query}"] } }, downstream: [], upstream: ["begin"] },
  },
  history: [],
  retrieval: [],
  path: [],
  globals: { "sys.query": "", "sys.user_id": "", "sys.conversation_turns": 0, "sys.files": [] },
  variables: {},
};
