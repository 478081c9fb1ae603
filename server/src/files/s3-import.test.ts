import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createClient } from "graphql-ws";
import { Client as MinioClient } from "minio";
import S3rver from "s3rver";
import WebSocket from "ws";
import type { SignedIn } from "../policies/principal";
import { MAX_FILE_BYTES } from "../knowledge/staged-upload";
import { startTestServer, type TestServer } from "../testing/app";
import { refusal } from "../testing/refusal";
import { apiUser, type ApiUser } from "../testing/rest-support";
import { S3ImportService } from "./s3-import";
import type { FileImport } from "./file.types";

/**
 * Imports from an S3-compatible bucket, against a local S3 server (s3rver) on loopback, which this test's server may
 * reach (S3_IMPORT_PRIVATE_ADDRESSES); and the file manager over GraphQL, as the /file page calls it.
 */

const BUCKET = "team-drive";
const SECRET = "S3RVER";

let s3: S3rver;
let s3Dir: string;
let endpoint: string;
let server: TestServer;
let user: ApiUser;
let asUser: SignedIn;

const source = (overrides: Record<string, string> = {}) => ({ endpoint, region: "us-east-1", bucket: BUCKET, prefix: "docs/", accessKey: "S3RVER", secretKey: SECRET, ...overrides });
const gql = <T = Record<string, any>>(query: string, variables: Record<string, unknown> = {}) => server.graphql<T>(query, variables, user.token); // eslint-disable-line @typescript-eslint/no-explicit-any

/** Follows an import until it ends, through the service's progress stream. */
async function finished(imports: S3ImportService, id: string): Promise<FileImport[]> {
  const seen: FileImport[] = [];
  for await (const state of await imports.progress(asUser, id)) seen.push(state);
  return seen;
}

beforeAll(async () => {
  s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-s3-import-"));
  s3 = new S3rver({ port: 0, address: "127.0.0.1", directory: s3Dir, silent: true, configureBuckets: [{ name: BUCKET }] });
  const { port } = await s3.run();
  endpoint = `http://127.0.0.1:${port}`;
  const bucket = new MinioClient({ endPoint: "127.0.0.1", port, useSSL: false, accessKey: "S3RVER", secretKey: SECRET, region: "us-east-1", pathStyle: true });
  await bucket.putObject(BUCKET, "docs/a.txt", Buffer.from("alpha"));
  await bucket.putObject(BUCKET, "docs/reports/q1.md", Buffer.from("# Q1"));
  await bucket.putObject(BUCKET, "docs/big.bin", Buffer.alloc(MAX_FILE_BYTES + 1));
  await bucket.putObject(BUCKET, "other/skip.txt", Buffer.from("not under the prefix"));
  server = await startTestServer({ S3_IMPORT_PRIVATE_ADDRESSES: "true" });
  user = await apiUser(server);
  asUser = (await server.services.principalFor(`Bearer ${user.token}`)) as SignedIn;
});
afterAll(async () => {
  await server.close();
  await s3.close();
  fs.rmSync(s3Dir, { recursive: true, force: true });
});

describe("importing from S3", () => {
  // s3rver cannot page (its continuation tokens use DES, which Node 20's OpenSSL 3 no longer has): one page here.
  it("lists the objects under the prefix, marking those over 10 MB", async () => {
    const page = await server.services.fileImports.list(asUser, source(), null);
    expect(page.objects.map((o) => [o.key, o.size, o.tooLarge])).toEqual([
      ["docs/a.txt", 5, false],
      ["docs/big.bin", MAX_FILE_BYTES + 1, true],
      ["docs/reports/q1.md", 4, false],
    ]);
    expect(page.nextContinuationToken).toBeNull();
  });

  it("copies the chosen objects into a folder with progress, each refusal on its own object", async () => {
    const imports = server.services.fileImports;
    const folder = await server.services.files.createFolder(asUser, null, "from-s3");
    const started = await imports.start(asUser, source(), ["docs/a.txt", "docs/reports/q1.md", "docs/big.bin", "docs/gone.txt"], folder.id);
    expect(started).toMatchObject({ total: 4, parentId: folder.id });
    const states = await finished(imports, started.id);
    const last = states.at(-1)!;
    expect(last).toMatchObject({ status: "done", done: 2, failed: 2 });
    expect(last.errors.map((e) => [e.key, e.messageKey])).toEqual([
      ["docs/big.bin", "errors.file.s3ObjectTooLarge"],
      ["docs/gone.txt", "errors.file.s3ObjectMissing"],
    ]);
    expect(last.errors[0].message).toBe("This object is larger than 10 MB.");
    const listed = await server.services.files.list(asUser, { parentId: folder.id });
    expect(listed.items.map((e) => [e.name, e.sourceType])).toEqual([["reports", "s3"], ["a.txt", "s3"]]);
    // The keys were never written down: not in the import's row, not in its events.
    const rows = await server.services.platform.db.query(`SELECT * FROM file_import`);
    expect(JSON.stringify(rows)).not.toContain(SECRET);
    expect(JSON.stringify(states)).not.toContain(SECRET);
  });

  it("says clearly when the bucket refuses the keys or does not exist, and refuses an endpoint that is no address", async () => {
    const imports = server.services.fileImports;
    expect(await refusal(imports.list(asUser, source({ accessKey: "NOT-A-KEY" }), null))).toEqual({ kind: "OUTSIDE_SERVICE", messageKey: "errors.file.s3AccessDenied" });
    expect(await refusal(imports.list(asUser, source({ bucket: "no-such-bucket" }), null))).toEqual({ kind: "OUTSIDE_SERVICE", messageKey: "errors.file.s3NoSuchBucket" });
    expect(await refusal(imports.list(asUser, source({ endpoint: "ftp://example.com" }), null))).toEqual({ kind: "BAD_REQUEST", messageKey: "errors.file.s3EndpointInvalid" });
    expect(await refusal(imports.start(asUser, source(), [], null))).toEqual({ kind: "BAD_REQUEST", messageKey: "errors.file.s3KeysEmpty" });
  });

  it("never reaches a private address unless S3_IMPORT_PRIVATE_ADDRESSES allows it", async () => {
    const { platform } = server.services;
    const guarded = new S3ImportService({ ...platform, config: { ...platform.config, s3ImportPrivateAddresses: false } }, server.services.files);
    expect(await refusal(guarded.list(asUser, source(), null))).toEqual({ kind: "BAD_REQUEST", messageKey: "errors.outbound.addressRefused" });
    expect(await refusal(guarded.list(asUser, source({ endpoint: endpoint.replace("127.0.0.1", "localhost") }), null))).toEqual({ kind: "BAD_REQUEST", messageKey: "errors.outbound.addressRefused" });
  });
});

describe("the file manager over GraphQL", () => {
  const ENTRY = `id name kind suffix size parentId readOnly sourceType hasChildFolders documentId knowledgeBases { id name documentId } can { read use manage delete }`;

  it("creates, lists with breadcrumbs, previews, and refuses bad input with translated codes", async () => {
    const created = await gql(`mutation { createFolder(name: "gql") { ${ENTRY} } }`);
    const folder = created.data!.createFolder;
    expect(folder).toMatchObject({ kind: "folder", readOnly: false, can: { read: true, use: true, manage: true, delete: true } });
    const [csv] = await server.services.files.upload(asUser, folder.id, [{ path: "table.csv", data: Buffer.from("name,age\nAda,36\n") }]);
    const listed = await gql(`query($id: ID) { files(parentId: $id, sort: name, desc: false) { total items { ${ENTRY} } folder { id } path { name } } }`, { id: folder.id });
    expect(listed.data!.files).toMatchObject({ total: 1, items: [{ name: "table.csv", suffix: "csv", size: 16 }], folder: { id: folder.id }, path: [{ name: "/" }, { name: "gql" }] });
    const preview = await gql(`query($id: ID!) { filePreview(id: $id) { kind } }`, { id: csv.id });
    expect(preview.errors).toBeUndefined();
    expect(preview.data!.filePreview.kind).toBeTruthy();
    const refused = await gql(`mutation { createFolder(name: "a/b") { id } }`);
    expect(refused.errors![0].extensions).toMatchObject({ code: "BAD_USER_INPUT", messageKey: "errors.file.nameSlash" });
    const tree = await gql(`{ fileFolders { id name hasChildFolders } }`);
    expect(tree.data!.fileFolders).toMatchObject([{ name: "/", hasChildFolders: true }]);
  });

  it("imports from a bucket and reports the progress to a subscriber over graphql-ws", async () => {
    const started = await gql(`mutation($source: S3SourceInput!) { importFromS3(source: $source, keys: ["docs/a.txt"]) { id total status } }`, { source: source() });
    expect(started.errors).toBeUndefined();
    const client = createClient({ url: `${server.url.replace("http", "ws")}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${user.token}` }, retryAttempts: 0 });
    try {
      const statuses: string[] = [];
      for await (const event of client.iterate<{ fileImportProgress: { status: string; done: number } }>({ query: `subscription($id: ID!) { fileImportProgress(importId: $id) { status done } }`, variables: { id: started.data!.importFromS3.id } })) {
        statuses.push(event.data!.fileImportProgress.status);
      }
      expect(statuses.at(-1)).toBe("done");
    } finally {
      await client.dispose();
    }
    const page = await gql(`mutation($source: S3SourceInput!) { listS3Objects(source: $source) { objects { key } nextContinuationToken } }`, { source: source() });
    expect(page.data!.listS3Objects.objects.map((o: { key: string }) => o.key)).toEqual(["docs/a.txt", "docs/big.bin", "docs/reports/q1.md"]);
  });
});
