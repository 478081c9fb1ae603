import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { englishMessage, LOCALES_DIR } from "../../platform/messages";
import type { StoredObject } from "../../platform/storage";
import { startTestServer, type TestServer } from "../../testing/app";
import { MAX_FILE_BYTES } from "../staged-upload";
import { apiUser, createDataset, multipart, uploadDocuments, type ApiUser } from "../../testing/rest-support";

/** Uploads stream into the object store as they arrive, are bounded in number, and respect a tenant's quota. */

const MiB = 1024 * 1024;
const QUOTA_MB = 12;

/** What reached the object store: each put, whether its body came as a stream, and how many bytes passed. */
interface Arrival {
  key: string;
  streamed: boolean;
  bytes: number;
  outcome?: "stored" | Error;
}

let server: TestServer;
const arrivals: Arrival[] = [];

beforeAll(async () => {
  server = await startTestServer({ MODEL_CACHE_DIR: "/tmp/cairn-model-cache", UPLOADS_PER_TENANT: "1", TENANT_STORAGE_QUOTA_MB: String(QUOTA_MB) });
  const store = server.platform.storage;
  const put = store.put.bind(store);
  store.put = (key: string, body: Buffer | Readable, contentType?: string): Promise<StoredObject> => {
    const arrival: Arrival = { key, streamed: !Buffer.isBuffer(body), bytes: Buffer.isBuffer(body) ? body.length : 0 };
    arrivals.push(arrival);
    let passed: Buffer | Readable = body;
    if (!Buffer.isBuffer(body)) {
      const tap = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          arrival.bytes += chunk.length;
          callback(null, chunk);
        },
      });
      body.on("error", (error) => tap.destroy(error));
      passed = body.pipe(tap);
    }
    return put(key, passed, contentType).then(
      (stored) => {
        arrival.outcome = "stored";
        return stored;
      },
      (error: Error) => {
        arrival.outcome = error;
        throw error;
      },
    );
  };
}, 60_000);

afterAll(() => server?.close());

const documentsPath = (datasetId: string) => `/api/v1/datasets/${datasetId}/documents`;
const arrivalsIn = (datasetId: string) => arrivals.filter((a) => a.key.startsWith(`${datasetId}/`));

/** Waits until `condition` holds, checking every 20 ms; fails after 15 s. */
async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The objects of a dataset in the disk object store. */
function storedObjects(datasetId: string): string[] {
  const dir = path.join(server.dataDir, "objects", datasetId);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

/**
 * A multipart upload whose last file the test sends piece by piece (chunked transfer encoding), after the
 * complete files of `before`: the server sees the body arrive as a slow client would send it.
 */
function streamingUpload(urlPath: string, authorization: string, fileName: string, before: { name: string; data: string }[] = []) {
  const boundary = `cairn-test-${Date.now()}`;
  const request = http.request(`${server.url}${urlPath}`, { method: "POST", headers: { authorization, "content-type": `multipart/form-data; boundary=${boundary}` } });
  const answer = new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    request.on("response", (response) => {
      const parts: Buffer[] = [];
      response.on("data", (part: Buffer) => parts.push(part));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(parts).toString("utf8")) }));
    });
    request.on("error", reject);
  });
  const filePart = (name: string) => `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  request.write(before.map((file) => `${filePart(file.name)}${file.data}\r\n`).join("") + filePart(fileName));
  return {
    send: (bytes: Buffer) => new Promise<void>((resolve, reject) => request.write(bytes, (error) => (error ? reject(error) : resolve()))),
    end: () => {
      request.end(`\r\n--${boundary}--\r\n`);
      return answer;
    },
  };
}

describe("an upload", () => {
  // A new tenant for each test: the quota counts what the tenant has stored.
  let user: ApiUser;
  beforeEach(async () => {
    user = await apiUser(server);
  });

  it("is written to the object store while it is still arriving, not gathered in memory first", async () => {
    const datasetId = await createDataset(server, user);
    const upload = streamingUpload(documentsPath(datasetId), `Bearer ${user.key}`, "nine-megabytes.txt");
    const piece = Buffer.alloc(MiB, 0x61);
    for (let i = 0; i < 3; i++) await upload.send(piece);

    // The client has sent a third of the file and holds the rest: the store is already receiving it.
    await waitFor(() => (arrivalsIn(datasetId)[0]?.bytes ?? 0) >= MiB, "the first bytes to reach the store");
    const [arrival] = arrivalsIn(datasetId);
    expect(arrival.streamed).toBe(true);
    expect(arrival.outcome).toBeUndefined();

    for (let i = 0; i < 6; i++) await upload.send(piece);
    const answer = await upload.end();
    expect(answer.body).toMatchObject({ code: 0, data: [{ name: "nine-megabytes.txt", size: 9 * MiB }] });
    expect(arrival).toMatchObject({ outcome: "stored", bytes: 9 * MiB });
    expect(storedObjects(datasetId)).toHaveLength(1);
  });

  it("with a file past 10 MB is cut off as the file arrives, and nothing of the upload stays stored", async () => {
    const datasetId = await createDataset(server, user);
    const upload = streamingUpload(documentsPath(datasetId), `Bearer ${user.key}`, "eleven-megabytes.txt", [{ name: "small.txt", data: "small" }]);
    const piece = Buffer.alloc(MiB, 0x62);
    for (let i = 0; i < 11; i++) await upload.send(piece);
    const answer = await upload.end();

    expect(answer.body).toEqual({ code: 101, message: englishMessage("httpStatus.413") });
    const [small, big] = arrivalsIn(datasetId);
    expect(small.outcome).toBe("stored");
    // The store never received more than the limit: the meter stopped the file at the piece that passed it.
    expect(big.bytes).toBeLessThanOrEqual(MAX_FILE_BYTES);
    expect(big.outcome).toMatchObject({ kind: "PAYLOAD_TOO_LARGE" });
    expect(storedObjects(datasetId)).toEqual([]);
    expect((await server.rest("GET", `${documentsPath(datasetId)}`, { token: user.key })).body.data).toEqual({ total: 0, docs: [] });
  });
});

describe("uploads at once", () => {
  it("are bounded per tenant: one more is refused with 429 while another tenant's goes through", async () => {
    const [busy, other] = [await apiUser(server), await apiUser(server)];
    const [busyDataset, otherDataset] = [await createDataset(server, busy), await createDataset(server, other)];
    const held = streamingUpload(documentsPath(busyDataset), `Bearer ${busy.key}`, "held.txt");
    await held.send(Buffer.alloc(64 * 1024, 0x63));
    await waitFor(() => arrivalsIn(busyDataset).length === 1, "the held upload to reach the store");

    const refusal = englishMessage("errors.knowledge.tooManyUploads");
    expect((await multipart(server, documentsPath(busyDataset), `Bearer ${busy.key}`, [{ name: "second.txt", data: "x" }])).body).toEqual({ code: 102, message: refusal });
    expect(await multipart(server, "/v1/document/upload", busy.token, [{ name: "web.txt", data: "x" }], { kb_id: busyDataset })).toEqual({
      status: 429,
      body: { code: 429, message: refusal, data: null },
    });
    expect((await multipart(server, documentsPath(otherDataset), `Bearer ${other.key}`, [{ name: "theirs.txt", data: "y" }])).body.code).toBe(0);

    expect((await held.end()).body).toMatchObject({ code: 0, data: [{ name: "held.txt" }] });
    // The place is free again once the held upload has ended.
    expect((await multipart(server, documentsPath(busyDataset), `Bearer ${busy.key}`, [{ name: "after.txt", data: "z" }])).body.code).toBe(0);
    expect(storedObjects(busyDataset)).toHaveLength(2);
  });
});

describe("a tenant's storage quota", () => {
  it("refuses an upload that would pass it with the translated reason, and stores nothing of it", async () => {
    const user = await apiUser(server);
    const datasetId = await createDataset(server, user);
    await uploadDocuments(server, user, datasetId, [{ name: "eight.txt", data: Buffer.alloc(8 * MiB, 0x64) }]);

    const refused = await multipart(server, documentsPath(datasetId), `Bearer ${user.key}`, [
      { name: "one.txt", data: Buffer.alloc(MiB, 0x65) },
      { name: "five.txt", data: Buffer.alloc(5 * MiB, 0x65) },
    ]);
    const reason = englishMessage("errors.knowledge.storageQuotaExceeded", { quota: QUOTA_MB });
    expect(refused.body).toEqual({ code: 102, message: reason });
    // The browser's uploader answers with HTTP 507, which it shows as the catalogue text in the user's language.
    expect(await multipart(server, "/v1/document/upload", user.token, [{ name: "five.txt", data: Buffer.alloc(5 * MiB, 0x65) }], { kb_id: datasetId })).toEqual({
      status: 507,
      body: { code: 507, message: reason, data: null },
    });
    expect(storedObjects(datasetId)).toHaveLength(1);
    const listed = await server.rest("GET", documentsPath(datasetId), { token: user.key });
    expect(listed.body.data.docs.map((d: { name: string }) => d.name)).toEqual(["eight.txt"]);

    // What still fits is taken.
    expect(await uploadDocuments(server, user, datasetId, [{ name: "three.txt", data: Buffer.alloc(3 * MiB, 0x66) }])).toHaveLength(1);
    for (const locale of fs.readdirSync(LOCALES_DIR)) {
      const messages = JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, locale), "utf8"));
      expect(messages.errors.knowledge.storageQuotaExceeded).toContain("{{quota}}");
      expect(messages.httpStatus["507"]).toBeTruthy();
      expect(messages.errors.knowledge.tooManyUploads).toBeTruthy();
    }
  });
});

describe("a stored document a browser could run", () => {
  it("is only ever sent as a sandboxed attachment of no particular type", async () => {
    const user = await apiUser(server);
    const datasetId = await createDataset(server, user);
    const [svg, html] = await uploadDocuments(server, user, datasetId, [
      { name: "drawing.svg", data: `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.domain)"/>` },
      { name: "page.html", data: "<script>alert(document.domain)</script>" },
    ]);
    for (const [id, name] of [
      [svg, "drawing.svg"],
      [html, "page.html"],
    ]) {
      for (const response of [
        await fetch(`${server.url}/v1/document/get/${id}`, { headers: { authorization: user.token } }),
        await fetch(`${server.url}${documentsPath(datasetId)}/${id}`, { headers: { authorization: `Bearer ${user.key}` } }),
      ]) {
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toBe("application/octet-stream");
        expect(response.headers.get("content-disposition")).toBe(`attachment; filename=${name}`);
        expect(response.headers.get("x-content-type-options")).toBe("nosniff");
        expect(response.headers.get("content-security-policy")).toMatch(/(^|; )sandbox(;|$)/);
        expect(await response.text()).toContain("alert(document.domain)");
      }
    }
  });
});
