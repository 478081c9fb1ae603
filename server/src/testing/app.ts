import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startServer, type RunningServer } from "../app";
import { loadConfig, type Config } from "../platform/config";
import { copyDatabaseTemplate } from "./database-template";

/** What a test reaches a server by: its URL and HTTP calls. A shared server offers nothing more (see sharedTestServer). */
export interface HttpTestServer {
  url: string;
  /** The server's DATA_DIR, for tests that look at the files it keeps. */
  dataDir: string;
  /** POSTs a GraphQL operation, with `token` as the bearer credential when given. */
  graphql<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>, token?: string): Promise<GraphQLResponse<T>>;
  /** Calls the REST facade and returns the HTTP status with the parsed JSON body. */
  rest(method: string, path: string, options?: { token?: string; authorization?: string; body?: unknown }): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  close(): Promise<void>;
}

/** A server of the test file's own, in this process: its platform and services are the test's to use. */
export type TestServer = RunningServer & HttpTestServer;

export interface GraphQLResponse<T> {
  data?: T;
  errors?: { message: string; extensions: Record<string, any> }[]; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * A test's fetch keeps connections to its server open. Should the server close an idle one just as the test sends
 * on it (a busy machine delays both timers alike), that request fails with ECONNRESET or "other side closed": the
 * server waits longer than fetch's own few seconds instead, so that the client always closes first.
 */
const KEEP_ALIVE = { HTTP_KEEP_ALIVE_SECONDS: "600" };

/**
 * Every test signs its accounts up and in from 127.0.0.1: the limits per address and per network would stop a test
 * file after a few accounts. The tests of those limits set them again, and send their own client addresses.
 */
const UNTHROTTLED_ADDRESSES = {
  SIGNUP_ADDRESS_FREE: "10000",
  SIGNUP_NETWORK_FREE: "100000",
  SIGNIN_ADDRESS_FREE_ATTEMPTS: "10000",
  SIGNIN_NETWORK_FREE_ATTEMPTS: "100000",
};

/**
 * A whole server on a free port with a fresh embedded database in a temporary DATA_DIR (a copy of the run's migrated
 * template, when there is one). A DATA_DIR or DATABASE_URL given in `env` is used as it is.
 */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-test-"));
  if (env.DATA_DIR === undefined && env.DATABASE_URL === undefined) copyDatabaseTemplate(dataDir);
  const config: Config = loadConfig({ DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", CLIENT_DIR: path.join(dataDir, "no-client"), ...UNTHROTTLED_ADDRESSES, ...KEEP_ALIVE, ...env });
  const server = await startServer(config);
  return {
    ...server,
    ...httpCalls(server.url),
    dataDir,
    async close() {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function httpCalls(url: string): Pick<HttpTestServer, "graphql" | "rest"> {
  return {
    async graphql(query, variables, token) {
      const response = await fetch(`${url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as GraphQLResponse<never>;
    },
    async rest(method, urlPath, options = {}) {
      const headers: Record<string, string> = {};
      if (options.authorization !== undefined) headers.authorization = options.authorization;
      else if (options.token) headers.authorization = `Bearer ${options.token}`;
      if (options.body !== undefined) headers["content-type"] = "application/json";
      const response = await fetch(`${url}${urlPath}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // plain-text answers (ping) stay text
      }
      return { status: response.status, body };
    },
  };
}

declare global {
  /** Set by the Jest environment testing/shared-server-environment.cjs: where this worker's shared server is. */
  var cairnSharedServer: (() => Promise<{ url: string; dataDir: string }>) | undefined;
}

/**
 * The test worker's shared server: one server process per Jest worker, started by the first suite that asks and
 * stopped when the worker exits, instead of a server per suite. It has the default test configuration; each suite
 * signs its own accounts up, so suites stay independent (no suite may rely on an empty database, or change the
 * server's configuration). It is reached over HTTP only; `close()` only tells that this suite is done with it.
 * A suite that needs other settings, or the services in process, starts its own with startTestServer.
 */
export async function sharedTestServer(): Promise<HttpTestServer> {
  const start = globalThis.cairnSharedServer;
  if (!start) throw new Error("sharedTestServer() needs the Jest environment testing/shared-server-environment.cjs (server/jest.config.js)");
  const { url, dataDir } = await start();
  return { url, dataDir, ...httpCalls(url), close: async () => undefined };
}

export const REGISTER = `mutation Register($input: RegisterInput!) { register(input: $input) { token expiresAt user { id email nickname } } }`;
export const LOGIN = `mutation Login($input: LoginInput!) { login(input: $input) { token expiresAt user { id email } } }`;

let userCounter = 0;

/** Registers a new user and signs in again (with `remember` when asked), returning the session token. */
export async function signUpAndIn(server: HttpTestServer, remember = false): Promise<{ token: string; userId: string; email: string; password: string }> {
  // Unique on a server that other suites of the worker use too (sharedTestServer), where this counter starts again.
  const email = `user${++userCounter}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = "correct horse battery";
  const registered = await server.graphql<{ register: { user: { id: string } } }>(REGISTER, { input: { email, nickname: `user${userCounter}`, password } });
  if (!registered.data) throw new Error(JSON.stringify(registered.errors));
  const login = await server.graphql<{ login: { token: string } }>(LOGIN, { input: { email, password, remember } });
  if (!login.data) throw new Error(JSON.stringify(login.errors));
  return { token: login.data.login.token, userId: registered.data.register.user.id, email, password };
}
