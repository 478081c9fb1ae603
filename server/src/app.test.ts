import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "./platform/config";
import { startTestServer, type TestServer } from "./testing/app";

/** How the built client is cached by browsers: a release must reach every page, and every website embedding the widget. */

let server: TestServer;
let clientDir: string;

beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-client-"));
  fs.mkdirSync(path.join(clientDir, "assets"));
  fs.mkdirSync(path.join(clientDir, "embed"));
  fs.writeFileSync(path.join(clientDir, "index.html"), "<!doctype html><title>Cairn</title>");
  fs.writeFileSync(path.join(clientDir, "assets", "index-Bx7Qk2mA.js"), "console.log('app');");
  fs.writeFileSync(path.join(clientDir, "embed", "chat-widget.js"), "console.log('widget');");
  fs.writeFileSync(path.join(clientDir, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  server = await startTestServer({ CLIENT_DIR: clientDir });
});

afterAll(async () => {
  await server?.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

const get = (urlPath: string) => fetch(`${server.url}${urlPath}`);

/** The status of a conditional GET; not with fetch, which marks a request carrying If-None-Match as `no-cache`. */
function revalidate(urlPath: string, etag: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(`${server.url}${urlPath}`, { headers: { "if-none-match": etag } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    }).on("error", reject);
  });
}

describe("the built client", () => {
  it("keeps content-hashed assets for a year", async () => {
    const response = await get("/assets/index-Bx7Qk2mA.js");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("has the embed widget script revalidated on every load, so that a release reaches websites embedding it", async () => {
    const response = await get("/embed/chat-widget.js");
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("console.log('widget');");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    const etag = response.headers.get("etag");
    expect(etag).toBeTruthy();
    // Unchanged: a 304 without the body.
    expect(await revalidate("/embed/chat-widget.js", etag!)).toBe(304);
  });

  it("revalidates the other files whose names do not change between releases", async () => {
    expect((await get("/favicon.svg")).headers.get("cache-control")).toBe("no-cache");
    expect((await get("/chat/share?shared_id=x")).headers.get("cache-control")).toBe("no-cache");
  });
});

describe("idle connections", () => {
  it("stay open as long as HTTP_KEEP_ALIVE_SECONDS says: Node's 5 s by default, 600 s on the test servers", async () => {
    expect(loadConfig({}).httpKeepAliveSeconds).toBe(5);
    const response = await get("/healthz");
    await response.arrayBuffer();
    expect(response.headers.get("keep-alive")).toBe("timeout=600");
  });
});
