import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import express from "express";
import { securityHeaders } from "./security-headers";
import { startTestServer, type TestServer } from "../testing/app";

/** Every answer of the server carries a CSP, nosniff, no Referer and frame protection; only the share page may be framed. */

const THEME_SCRIPT = `
      (function () { document.documentElement.classList.add("light"); })();
    `;

let server: TestServer;
let clientDir: string;

beforeAll(async () => {
  clientDir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-client-"));
  fs.writeFileSync(
    path.join(clientDir, "index.html"),
    `<!doctype html><html><head><script>${THEME_SCRIPT}</script><style>html { background: #fff; }</style></head><body><div id="root"></div><script type="module" src="/assets/index-abc.js"></script></body></html>`,
  );
  server = await startTestServer({ CLIENT_DIR: clientDir });
}, 60_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(clientDir, { recursive: true, force: true });
});

/** The policy as directive name → sources. */
function directives(policy: string | null): Record<string, string[]> {
  return Object.fromEntries(
    (policy ?? "")
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name, sources]),
  );
}

const get = (urlPath: string, headers: Record<string, string> = {}) => fetch(`${server.url}${urlPath}`, { headers });

function expectCommonHeaders(response: Response): void {
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(response.headers.get("referrer-policy")).toBe("no-referrer");
  expect(response.headers.get("content-security-policy")).toBeTruthy();
}

function expectNotFrameable(response: Response): void {
  expect(response.headers.get("x-frame-options")).toBe("DENY");
  expect(directives(response.headers.get("content-security-policy"))["frame-ancestors"]).toEqual(["'none'"]);
}

describe("the client's pages", () => {
  it("carry a policy that runs the app's own scripts and its inline theme script, and nothing else", async () => {
    const response = await get("/knowledge");
    expect(response.status).toBe(200);
    expectCommonHeaders(response);
    const policy = directives(response.headers.get("content-security-policy"));
    const themeHash = `'sha256-${createHash("sha256").update(THEME_SCRIPT).digest("base64")}'`;
    expect(policy["script-src"]).toEqual(["'self'", themeHash]);
    expect(policy["default-src"]).toEqual(["'self'"]);
    expect(policy["object-src"]).toEqual(["'none'"]);
    expect(policy["base-uri"]).toEqual(["'self'"]);
    // Chakra UI's emotion injects <style> elements as it renders.
    expect(policy["style-src"]).toEqual(["'self'", "'unsafe-inline'"]);
    // pdf.js reads the document it is handed from a blob: URL
    expect(policy["connect-src"]).toEqual(["'self'", "blob:"]);
  });

  it("cannot be framed: the home page, sign-in, a document, settings", async () => {
    for (const page of ["/", "/login", "/document/abc", "/user-setting/api", "/embed/chat-widget.js"]) {
      const response = await get(page);
      expectCommonHeaders(response);
      expectNotFrameable(response);
    }
  });

  it("leaves the share page frameable by any website, as the embed dialog's iframe and widget need", async () => {
    for (const page of ["/chat/share?shared_id=abc", "/chat/share?shared_id=abc&embed=widget", "/chat/share/"]) {
      const response = await get(page);
      expect(response.status).toBe(200);
      expectCommonHeaders(response);
      expect(response.headers.get("x-frame-options")).toBeNull();
      const policy = directives(response.headers.get("content-security-policy"));
      expect(policy["frame-ancestors"]).toBeUndefined();
      expect(policy["script-src"]).toEqual(expect.arrayContaining(["'self'"]));
    }
  });
});

describe("the API", () => {
  it("answers GraphQL with the headers and without framing", async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    expect(response.status).toBe(200);
    expectCommonHeaders(response);
    expectNotFrameable(response);
  });

  it("gives the GraphQL landing page a policy that lets Apollo's Sandbox load from its CDN", async () => {
    const response = await get("/graphql", { accept: "text/html" });
    expect(response.status).toBe(200);
    const html = await response.text();
    expectCommonHeaders(response);
    expectNotFrameable(response);
    const policy = directives(response.headers.get("content-security-policy"));
    const sandboxScript = /<script nonce="[^"]+" src="(https:\/\/[^/"]+)\//.exec(html)?.[1];
    expect(sandboxScript).toBe("https://embeddable-sandbox.cdn.apollographql.com");
    expect(policy["script-src"]).toContain(sandboxScript);
    expect(policy["frame-src"]).toContain("https://sandbox.embed.apollographql.com");
  });

  it("answers REST routes, the web API and the health check with a policy that lets nothing run", async () => {
    for (const route of ["/api/v1/datasets", "/v1/user/info", "/healthz", "/api/v1/no-such-route"]) {
      const response = await get(route);
      expectCommonHeaders(response);
      expectNotFrameable(response);
      expect(directives(response.headers.get("content-security-policy"))).toMatchObject({ "default-src": ["'none'"], sandbox: [] });
    }
  });
});

describe("with EMBED_ALLOWED_ORIGINS", () => {
  let app: http.Server;
  let url: string;

  beforeAll(async () => {
    const handler = express();
    handler.use(securityHeaders({ inlineScripts: [], embedAllowedOrigins: ["https://intranet.example.com", "https://*.example.org"], apiPrefixes: ["/api/"], graphqlPath: "/graphql" }));
    handler.get(/.*/, (_req, res) => {
      res.send("page");
    });
    app = http.createServer(handler);
    await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => app.close(() => resolve())));

  it("lets only those origins (and Cairn itself) frame the share page; other pages stay unframeable", async () => {
    const share = await fetch(`${url}/chat/share?shared_id=abc`);
    expect(share.headers.get("x-frame-options")).toBeNull();
    expect(directives(share.headers.get("content-security-policy"))["frame-ancestors"]).toEqual(["'self'", "https://intranet.example.com", "https://*.example.org"]);
    expectNotFrameable(await fetch(`${url}/chat`));
  });
});
