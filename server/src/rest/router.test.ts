import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { signUpAndIn, startTestServer, type TestServer } from "../testing/app";
import { NotFound } from "../platform/errors";
import { success } from "./envelope";
import { createRestRouter } from "./router";
import { authenticatedRoute, type RestRoute } from "./rest-route";

const CREATE_TOKEN = `mutation { createApiToken { token } }`;

/** Routes that exist only in this test, to exercise the dispatcher before the domains add theirs. */
const probeRoutes: RestRoute[] = [
  authenticatedRoute("GET", "/api/v1/probe/:probeId", "apiKey", async ({ params, principal }) =>
    success({ probe_id: params.probeId, tenant_id: principal.tenantId }),
  ),
  authenticatedRoute("POST", "/api/v1/probe/:probeId/echo", "apiKey", async ({ body }) => success(body)),
  authenticatedRoute("DELETE", "/api/v1/probe/:probeId/missing", "apiKey", async () => {
    throw NotFound();
  }),
  authenticatedRoute("POST", "/api/v1/probe/boom", "apiKey", async () => {
    throw new Error("it's broken");
  }),
];

let server: TestServer;
let probeUrl: string;
let probeServer: http.Server;
let apiKey: string;
let tenantId: string;

beforeAll(async () => {
  server = await startTestServer();
  const app = express();
  app.use(createRestRouter(server.services, probeRoutes));
  probeServer = http.createServer(app);
  await new Promise<void>((resolve) => probeServer.listen(0, "127.0.0.1", resolve));
  probeUrl = `http://127.0.0.1:${(probeServer.address() as AddressInfo).port}`;
  const user = await signUpAndIn(server);
  tenantId = user.userId;
  apiKey = (await server.graphql<{ createApiToken: { token: string } }>(CREATE_TOKEN, {}, user.token)).data!.createApiToken.token;
});
afterAll(async () => {
  await new Promise((resolve) => probeServer.close(resolve));
  await server.close();
});

async function probe(method: string, path: string, init: { authorization?: string; body?: string; contentType?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.authorization !== undefined) headers.authorization = init.authorization;
  if (init.contentType) headers["content-type"] = init.contentType;
  const response = await fetch(`${probeUrl}${path}`, { method, headers, body: init.body });
  return { status: response.status, body: (await response.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe("the /api/v1 authentication, word for word as RAGFlow answers", () => {
  it("a missing header", async () => {
    expect(await probe("GET", "/api/v1/probe/1")).toEqual({ status: 200, body: { code: 0, message: "`Authorization` can't be empty", data: false } });
  });

  it("a header with one word", async () => {
    expect(await probe("GET", "/api/v1/probe/1", { authorization: apiKey })).toEqual({
      status: 200,
      body: { code: 0, message: "Please check your authorization format.", data: false },
    });
  });

  it("an unknown key", async () => {
    expect(await probe("GET", "/api/v1/probe/1", { authorization: "Bearer ragflow-nope" })).toEqual({
      status: 200,
      body: { code: 109, message: "Authentication error: API key is invalid!", data: false },
    });
  });

  it("a session token is not an API key", async () => {
    const { token } = await signUpAndIn(server);
    expect((await probe("GET", "/api/v1/probe/1", { authorization: `Bearer ${token}` })).body.code).toBe(109);
  });

  it("a valid key reaches the handler with its tenant, whatever the scheme word", async () => {
    expect(await probe("GET", "/api/v1/probe/abc", { authorization: `Bearer ${apiKey}` })).toEqual({
      status: 200,
      body: { code: 0, data: { probe_id: "abc", tenant_id: tenantId } },
    });
    expect((await probe("GET", "/api/v1/probe/abc/", { authorization: `Token ${apiKey}` })).body.code).toBe(0);
  });
});

describe("routing", () => {
  it("an unknown path is a 404 naming the path", async () => {
    expect(await probe("GET", "/api/v1/nowhere", { authorization: `Bearer ${apiKey}` })).toEqual({
      status: 404,
      body: { code: 404, message: "Not Found: /api/v1/nowhere", data: null, error: "Not Found" },
    });
  });

  it("a known path with another method is RAGFlow's code-100 MethodNotAllowed", async () => {
    expect(await probe("PUT", "/api/v1/probe/1", { authorization: `Bearer ${apiKey}` })).toEqual({
      status: 200,
      body: { code: 100, message: "<MethodNotAllowed '405: Method Not Allowed'>", data: null },
    });
  });

  it("an empty id collapses onto another route and is answered as a method mismatch", async () => {
    expect((await probe("POST", "/api/v1/probe//echo", { authorization: `Bearer ${apiKey}` })).body.message).toBe(
      "<MethodNotAllowed '405: Method Not Allowed'>",
    );
  });
});

describe("bodies and errors", () => {
  const auth = () => `Bearer ${apiKey}`;

  it("an empty body is an empty object and form fields are read", async () => {
    expect((await probe("POST", "/api/v1/probe/1/echo", { authorization: auth() })).body).toEqual({ code: 0, data: {} });
    expect(
      (await probe("POST", "/api/v1/probe/1/echo", { authorization: auth(), body: "a=1&b=two", contentType: "application/x-www-form-urlencoded" })).body,
    ).toEqual({ code: 0, data: { a: "1", b: "two" } });
  });

  it("a JSON string or array is refused with Python's exception text", async () => {
    expect((await probe("POST", "/api/v1/probe/1/echo", { authorization: auth(), body: '"not json"', contentType: "application/json" })).body).toEqual({
      code: 100,
      message: "AttributeError(\"'str' object has no attribute 'get'\")",
      data: null,
    });
    expect((await probe("POST", "/api/v1/probe/1/echo", { authorization: auth(), body: "[1]", contentType: "application/json" })).body.message).toBe(
      "TypeError('JSON payload must be an object.')",
    );
  });

  it("unparseable JSON is a code-100 BadRequest", async () => {
    expect((await probe("POST", "/api/v1/probe/1/echo", { authorization: auth(), body: "{oops", contentType: "application/json" })).body).toEqual({
      code: 100,
      message: "<BadRequest '400: Bad Request'>",
      data: null,
    });
  });

  it("a domain error becomes its return code and English message", async () => {
    expect((await probe("DELETE", "/api/v1/probe/1/missing", { authorization: auth() })).body).toEqual({ code: 102, message: "This record does not exist." });
  });

  it("an unexpected error is code 100 with a reference to the server's log, never its message", async () => {
    const logged = jest.spyOn(console, "error").mockImplementation(() => undefined);
    const { body } = await probe("POST", "/api/v1/probe/boom", { authorization: auth() });
    expect(body).toEqual({ code: 100, message: expect.stringMatching(/^Something went wrong on the server\. Quote this reference when you report it: [0-9a-f-]{36}$/), data: null });
    const reference = body.message.split(": ")[1];
    expect(logged).toHaveBeenCalledTimes(1);
    expect(logged).toHaveBeenCalledWith(expect.stringContaining(reference), expect.objectContaining({ message: "it's broken" }));
    logged.mockRestore();
  });

  it("a path parameter that is not valid percent-encoding is a Bad Request, not an internal error", async () => {
    expect((await probe("GET", "/api/v1/probe/%E0%A4%A", { authorization: auth() })).body).toEqual({
      code: 100,
      message: "<BadRequest '400: Bad Request'>",
      data: null,
    });
  });
});

describe("what the real routes reveal of a hostile request", () => {
  const internals = /URI malformed|bigint|out of range|\.ts:\d|node_modules|stack/i;

  it.each([
    ["a malformed percent-encoding in a dataset path", "PUT", "/api/v1/datasets/%E0%A4%A"],
    ["a malformed percent-encoding in a nested path", "GET", "/api/v1/datasets/%E0%A4%A/documents"],
    ["a page number beyond any integer column", "GET", "/api/v1/datasets?page=99999999999999999999"],
    ["a page size beyond any integer column", "GET", "/api/v1/chats?page_size=99999999999999999999&page=99999999999999999999"],
  ])("%s answers in the envelope without the internal message", async (_, method, path) => {
    const logged = jest.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const response = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" }, body: method === "PUT" ? "{}" : undefined });
      const text = await response.text();
      expect(JSON.parse(text)).toEqual(expect.objectContaining({ code: expect.any(Number) }));
      expect(text).not.toMatch(internals);
    } finally {
      logged.mockRestore();
    }
  });
});

describe("the web API endpoints RAGFlow clients bootstrap with", () => {
  const account = { email: `web-${Date.now()}@example.com`, nickname: "webby", password: "web password 1" };

  it("registers, signs in with the token in the Authorization header, and issues an API key", async () => {
    const registered = await fetch(`${server.url}/v1/user/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(account),
    });
    const body = (await registered.json()) as { data: { id: string } };
    expect(body).toMatchObject({ code: 0, message: "webby, welcome aboard!", data: { email: account.email, nickname: "webby" } });
    // Signed in at once, as RAGFlow's register answers: its Authorization header is a working login token.
    const registeredToken = registered.headers.get("authorization")!;
    expect((await server.rest("GET", "/v1/user/tenant_info", { authorization: registeredToken })).body).toMatchObject({ code: 0, data: { tenant_id: body.data.id } });

    const again = await server.rest("POST", "/v1/user/register", { body: account });
    expect(again.body).toEqual({ code: 103, message: `Email: ${account.email} has already registered!`, data: null });

    const login = await fetch(`${server.url}/v1/user/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    expect(await login.json()).toMatchObject({ code: 0, message: "Welcome back!" });
    const loginToken = login.headers.get("authorization")!;

    const issued = await server.rest("POST", "/v1/system/new_token", { authorization: loginToken });
    expect(issued.body).toMatchObject({ code: 0, message: "success", data: { tenant_id: body.data.id, update_time: null } });
    const info = await server.rest("GET", "/v1/user/tenant_info", { token: issued.body.data.token });
    expect(info.body).toMatchObject({ code: 0, data: { tenant_id: body.data.id, name: "webby‘s Kingdom", role: "owner" } });
  });

  it("lists missing arguments as RAGFlow does", async () => {
    expect((await server.rest("POST", "/v1/user/register", { body: { email: "x@example.com" } })).body).toEqual({
      code: 101,
      message: "required argument are missing: nickname,password; ",
      data: null,
    });
  });

  it("refuses a wrong password with code 109", async () => {
    expect((await server.rest("POST", "/v1/user/login", { body: { email: account.email, password: "nope nope nope" } })).body).toEqual({
      code: 109,
      message: "Email and password do not match!",
      data: null,
    });
  });

  it("answers an anonymous call to a login-protected endpoint with HTTP 401", async () => {
    expect(await server.rest("GET", "/v1/user/tenant_info")).toEqual({
      status: 401,
      body: { code: 401, message: "<Unauthorized '401: Unauthorized'>", data: null },
    });
  });

  it("answers ping with pong", async () => {
    expect(await server.rest("GET", "/v1/system/ping")).toEqual({ status: 200, body: "pong" });
  });
});
