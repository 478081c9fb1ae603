import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { apiUser, createDataset, uploadDocuments } from "../testing/rest-support";
import { signUpAndIn, startTestServer } from "../testing/app";
import { copyDatabaseTemplate } from "../testing/database-template";
import { SecretBox } from "./secret-box";

/** What Cairn keeps on disk is readable by the server's user only, and the server key can live apart from the data. */

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe("the data directory", () => {
  it("holds documents, the database and the server key readable by the server's user only, narrowing an older installation's modes", async () => {
    // An installation from before: the data directory and its objects folder open to every local user.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-modes-"));
    fs.chmodSync(dataDir, 0o755);
    fs.mkdirSync(path.join(dataDir, "objects"), { mode: 0o755 });
    fs.chmodSync(path.join(dataDir, "objects"), 0o755);
    // its database, migrated (database.test.ts covers creating one in a fresh DATA_DIR)
    copyDatabaseTemplate(dataDir);
    const server = await startTestServer({ DATA_DIR: dataDir });
    try {
      const user = await apiUser(server);
      const datasetId = await createDataset(server, user);
      const [documentId] = await uploadDocuments(server, user, datasetId, [{ name: "payroll.txt", data: "salaries" }]);

      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(path.join(dataDir, "objects"))).toBe(0o700);
      expect(modeOf(path.join(dataDir, "objects", datasetId))).toBe(0o700);
      expect(modeOf(path.join(dataDir, "objects", datasetId, documentId))).toBe(0o600);
      expect(modeOf(path.join(dataDir, "pg"))).toBe(0o700);
      expect(modeOf(path.join(dataDir, "pg.lock"))).toBe(0o600);
      expect(modeOf(path.join(dataDir, "secret.key"))).toBe(0o600);
    } finally {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("SECRET_KEY_FILE", () => {
  it("keeps the server key outside DATA_DIR: model provider secrets are sealed with the key of that file", async () => {
    const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-key-"));
    const keyFile = path.join(keyDir, "cairn.key");
    const key = "f".repeat(64);
    fs.writeFileSync(keyFile, key, { mode: 0o600 });
    const server = await startTestServer({ SECRET_KEY_FILE: keyFile });
    try {
      const { token } = await signUpAndIn(server);
      const added = await server.graphql(
        `mutation Add($input: ModelEntryInput!) { addModelEntry(input: $input) { id } }`,
        {
          input: {
            provider: "OpenAI-API-Compatible",
            modelName: "local-model",
            modelType: "chat",
            credentials: [
              { name: "apiKey", value: "sk-sealed-with-the-file-key" },
              { name: "baseUrl", value: "http://127.0.0.1:9/v1" },
            ],
          },
        },
        token,
      );
      expect(added.errors).toBeUndefined();

      const [row]: { sealed_secrets: string }[] = await server.platform.db.query(`SELECT sealed_secrets FROM model_entry`);
      expect(SecretBox.fromKey(key).open(row.sealed_secrets)).toContain("sk-sealed-with-the-file-key");
      expect(fs.existsSync(path.join(server.dataDir, "secret.key"))).toBe(false);
    } finally {
      await server.close();
      fs.rmSync(keyDir, { recursive: true, force: true });
    }
  }, 60_000);
});
