import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startServer } from "../app";
import { loadConfig } from "../platform/config";

/**
 * A freshly migrated embedded database, made once per Jest run, that every test server copies instead of creating
 * and migrating its own: initdb and the migrations were most of a test server's start (seconds each, for each of
 * some thirty suites). Jest's globalSetup makes it before the workers start, so they inherit the variable.
 */
export const TEMPLATE_VARIABLE = "CAIRN_TEST_DATABASE_TEMPLATE";

export async function createDatabaseTemplate(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-template-"));
  // A whole server, started and stopped, through the composition root: whatever it migrates is in the template.
  const server = await startServer(loadConfig({ DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", CLIENT_DIR: path.join(dataDir, "no-client"), JOB_CONCURRENCY: "0" }));
  await server.close();
  return path.join(dataDir, "pg");
}

/** The template's embedded database copied into `dataDir`; nothing when this run has none (the server then makes its own). */
export function copyDatabaseTemplate(dataDir: string): void {
  const template = process.env[TEMPLATE_VARIABLE];
  if (template && fs.existsSync(template)) fs.cpSync(template, path.join(dataDir, "pg"), { recursive: true });
}

export function removeDatabaseTemplate(): void {
  const template = process.env[TEMPLATE_VARIABLE];
  if (template) fs.rmSync(path.dirname(template), { recursive: true, force: true });
}
