import { signUpAndIn, startTestServer, type TestServer } from "../testing/app";

/** GraphQL over HTTP as an attacker meets it: the budget, what errors reveal, and introspection per environment. */

let development: TestServer;
let production: TestServer;

beforeAll(async () => {
  // Jest runs with NODE_ENV=test, under which Apollo hides stack traces by itself; a server started by hand has none.
  const jestEnvironment = process.env.NODE_ENV;
  delete process.env.NODE_ENV;
  try {
    [development, production] = await Promise.all([startTestServer(), startTestServer({ NODE_ENV: "production" })]);
  } finally {
    process.env.NODE_ENV = jestEnvironment;
  }
}, 60_000);
afterAll(async () => {
  await Promise.all([development?.close(), production?.close()]);
});

async function post(server: TestServer, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/graphql`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as { data?: unknown; errors?: { message: string; extensions: Record<string, any> }[] } }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Nothing of the server's insides: no stack trace, no source path. */
function expectNoInternals(text: string): void {
  expect(text).not.toMatch(/stacktrace|\.ts:\d|\.js:\d|node_modules|\/src\//);
}

const RETRIEVE = `retrieve(input: { question: "wind turbines", knowledgeBaseIds: ["00000000-0000-0000-0000-000000000000"] }) { total hits { similarity chunk { id content } } }`;

describe("the budget over HTTP", () => {
  test("300 aliased retrieve fields are refused with a translated code before any of them runs", async () => {
    const { token } = await signUpAndIn(development);
    const search = jest.spyOn(development.services.retrieval, "search");
    try {
      const query = `{ ${Array.from({ length: 300 }, (_, i) => `r${i}: ${RETRIEVE}`).join(" ")} }`;
      const answer = await post(development, JSON.stringify({ query }), { authorization: `Bearer ${token}` });
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([
        expect.objectContaining({ extensions: expect.objectContaining({ code: "QUERY_BUDGET_EXCEEDED", messageKey: "errors.graphql.tooLong" }) }),
      ]);
      const compact = `query ($i: RetrievalInput!) { ${Array.from({ length: 240 }, (_, i) => `r${i}: retrieve(input: $i) { total }`).join(" ")} }`;
      const variables = { i: { question: "wind", knowledgeBaseIds: ["00000000-0000-0000-0000-000000000000"] } };
      const aliased = await post(development, JSON.stringify({ query: compact, variables }), { authorization: `Bearer ${token}` });
      expect(aliased.status).toBe(400);
      expect(aliased.body.errors?.[0]).toMatchObject({
        message: "The query uses 240 aliases; at most 20 are allowed.",
        extensions: { code: "QUERY_BUDGET_EXCEEDED", messageKey: "errors.graphql.tooManyAliases", params: { count: 240, limit: 20 } },
      });
      const costly = await post(development, JSON.stringify({ query: `{ ${Array.from({ length: 12 }, (_, i) => `r${i}: ${RETRIEVE}`).join(" ")} }` }), {
        authorization: `Bearer ${token}`,
      });
      expect(costly.status).toBe(400);
      expect(costly.body.errors?.[0].extensions).toMatchObject({ code: "QUERY_BUDGET_EXCEEDED", messageKey: "errors.graphql.tooCostly" });
      expect(search).not.toHaveBeenCalled();
    } finally {
      search.mockRestore();
    }
  });
});

describe("errors reveal nothing of the server", () => {
  test.each([
    ["a signed-out caller", `{ me { email } }`, "UNAUTHENTICATED"],
    ["a query with a syntax error", `{ me { `, "GRAPHQL_PARSE_FAILED"],
    ["a query naming an unknown field", `{ nothing }`, "GRAPHQL_VALIDATION_FAILED"],
  ])("%s receives no stack trace (in development too)", async (_, query, code) => {
    for (const server of [development, production]) {
      const answer = await post(server, JSON.stringify({ query }));
      expect(answer.body.errors?.[0].extensions.code).toBe(code);
      expectNoInternals(answer.text);
    }
  });

  test("a body that is not JSON is a clean Bad Request", async () => {
    const answer = await post(development, "{ not json");
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", messageKey: "httpStatus.400" });
    expectNoInternals(answer.text);
  });

  test("a string holding U+0000, which nothing can store, is a translated Bad Request, in the variables or written in the document, and stores nothing", async () => {
    const { token } = await signUpAndIn(development);
    const headers = { authorization: `Bearer ${token}` };
    const create = (name: string) => `mutation { createKnowledgeBase(input: { name: ${JSON.stringify(name)} }) { name } }`;
    for (const body of [
      { query: `mutation($i: KnowledgeBaseInput!) { createKnowledgeBase(input: $i) { name } }`, variables: { i: { name: "a\u0000b" } } },
      { query: create("a\u0000b").replace("\\u0000", "\\u{0}") },
      { query: create("a\u0000b") },
    ]) {
      const answer = await post(development, JSON.stringify(body), headers);
      expect(answer.status).toBe(400);
      expect(answer.body.errors?.[0]).toMatchObject({ message: "Text cannot contain the NUL character (U+0000). Remove it and try again.", extensions: { messageKey: "errors.nulCharacter" } });
    }
    // A backslash written before "u0000" is text like any other.
    expect((await post(development, JSON.stringify({ query: create("a\\u0000b") }), headers)).body.data).toEqual({ createKnowledgeBase: { name: "a\\u0000b" } });
    const listed = await post(development, JSON.stringify({ query: `{ knowledgeBases { items { name } } }` }), headers);
    expect(listed.body.data).toEqual({ knowledgeBases: { items: [{ name: "a\\u0000b" }] } });
  });

  test("an unexpected failure is a translated internal error whose reference the server logged, without its message", async () => {
    const { token } = await signUpAndIn(production);
    const failing = jest.spyOn(production.services.knowledgeBases, "list").mockRejectedValue(new Error("bigint out of range at /srv/cairn/server/src/knowledge/x.ts:12"));
    const logged = jest.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const answer = await post(production, JSON.stringify({ query: `{ knowledgeBases { total } }` }), { authorization: `Bearer ${token}` });
      const error = answer.body.errors![0];
      expect(error.extensions).toMatchObject({ code: "INTERNAL_SERVER_ERROR", messageKey: "errors.internal", params: { reference: expect.any(String) } });
      expect(error.message).toBe(`Something went wrong on the server. Quote this reference when you report it: ${error.extensions.params.reference}`);
      expect(answer.text).not.toContain("bigint");
      expectNoInternals(answer.text);
      expect(logged).toHaveBeenCalledWith(expect.stringContaining(error.extensions.params.reference), expect.objectContaining({ message: expect.stringContaining("bigint") }));
    } finally {
      failing.mockRestore();
      logged.mockRestore();
    }
  });
});

describe("introspection and the Sandbox", () => {
  const INTROSPECTION = JSON.stringify({ query: `{ __schema { queryType { name } } }` });
  const sandbox = (server: TestServer) => fetch(`${server.url}/graphql`, { headers: { accept: "text/html" } });

  test("are on by default in development", async () => {
    expect((await post(development, INTROSPECTION)).body).toEqual({ data: { __schema: { queryType: { name: "Query" } } } });
    expect(await (await sandbox(development)).text()).toContain("sandbox");
  });

  test("are off in production", async () => {
    const answer = await post(production, INTROSPECTION);
    expect(answer.status).toBe(400);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors?.[0]).toMatchObject({ message: expect.stringContaining("introspection"), extensions: { code: "GRAPHQL_VALIDATION_FAILED" } });
    expect(await (await sandbox(production)).text()).not.toContain("sandbox");
  });
});
