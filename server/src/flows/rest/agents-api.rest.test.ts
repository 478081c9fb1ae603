import OpenAI from "openai";
import { TenantMember } from "../../auth/tenant-member.entity";
import { startTestServer, type TestServer } from "../../testing/app";
import { apiUser, type ApiUser } from "../../testing/rest-support";
import { RAGFLOW_MINIMAL_DSL } from "../testing/ragflow-fixtures";

/**
 * RAGFlow's agents API through the real server (API contract §10): agents CRUD, agent sessions, completions
 * streamed as RAGFlow's frames and not streamed, the OpenAI-compatible agent completions (with the official
 * `openai` client), tenant isolation and API-key authentication. RAGFlow's own two HTTP tests of agents are
 * the first describe block, as they are written.
 */



const DEFAULT_PROLOGUE = "Hi! I'm your smart assistant. What can I do for you?";

/** v0.14's shape: Begin → Message → Answer; the next turns go on from the Answer, through a Template back to it. */
const MESSAGE_ANSWER_DSL = {
  components: {
    begin: { obj: { component_name: "Begin", params: { prologue: "Welcome aboard." } }, downstream: ["Message:Echo"], upstream: [] },
    "Message:Echo": { obj: { component_name: "Message", params: { messages: ["You said: {sys.query}"] } }, downstream: ["Answer:Reply"], upstream: ["begin"] },
    "Answer:Reply": { obj: { component_name: "Answer", params: {} }, downstream: ["Template:Again"], upstream: ["Message:Echo", "Template:Again"] },
    "Template:Again": { obj: { component_name: "Template", params: { content: "You said: {sys.query}" } }, downstream: ["Answer:Reply"], upstream: ["Answer:Reply"] },
  },
  graph: {
    nodes: [
      { id: "begin", position: { x: 0, y: 0 }, data: { label: "Begin", name: "Start" } },
      { id: "Message:Echo", position: { x: 200, y: 0 }, data: { label: "Message", name: "Echo" } },
      { id: "Answer:Reply", position: { x: 400, y: 0 }, data: { label: "Answer", name: "Reply" } },
      { id: "Template:Again", position: { x: 400, y: 200 }, data: { label: "Template", name: "Again" } },
    ],
    edges: [
      { id: "e1", source: "begin", target: "Message:Echo" },
      { id: "e2", source: "Message:Echo", target: "Answer:Reply" },
      { id: "e3", source: "Answer:Reply", target: "Template:Again" },
      { id: "e4", source: "Template:Again", target: "Answer:Reply" },
    ],
  },
};

let server: TestServer;
let owner: ApiUser;
let stranger: ApiUser;

beforeAll(async () => {
  server = await startTestServer();
  [owner, stranger] = [await apiUser(server), await apiUser(server)];
}, 120_000);

afterAll(async () => {
  await server?.close();
});

const rest = (method: string, path: string, body?: unknown, user = owner) => server.rest(method, path, { token: user.key, body });

let titles = 0;
/** Creates an agent as RAGFlow's fixture does (create, then find it by title); returns its id. */
async function createAgent(dsl: unknown = RAGFLOW_MINIMAL_DSL, user = owner, title = `agent-${++titles}-${Math.random().toString(36).slice(2, 8)}`): Promise<string> {
  const created = await rest("POST", "/api/v1/agents", { title, dsl }, user);
  expect(created.body).toEqual({ code: 0, message: "success", data: true });
  const found = await server.rest("GET", `/api/v1/agents?title=${encodeURIComponent(title)}`, { token: user.key });
  expect(found.body.data).toHaveLength(1);
  return found.body.data[0].id;
}

async function createSession(agentId: string, user = owner, query = ""): Promise<Record<string, any>> {
  const created = await rest("POST", `/api/v1/agents/${agentId}/sessions${query}`, {}, user);
  expect(created.body.code).toBe(0);
  return created.body.data;
}

/** A raw SSE answer: each frame's text after `data:`, parsed unless it is the terminator. */
async function sse(path: string, body: unknown, key = owner.key, prefix = "data:"): Promise<{ raw: string; json: any[]; contentType: string | null }> {
  const response = await fetch(`${server.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  const raw = await response.text();
  const frames = raw.split("\n\n").filter((f) => f !== "");
  for (const frame of frames) expect(frame.startsWith(prefix)).toBe(true);
  const texts = frames.map((f) => f.slice(prefix.length));
  return { raw, json: texts.map((t) => (t === "[DONE]" ? t : JSON.parse(t))), contentType: response.headers.get("content-type") };
}

describe("RAGFlow's HTTP tests of agents (test_session_management)", () => {
  let agentId: string;
  beforeAll(async () => {
    // The fixture: delete an agent left over with the title, then create it and find it by title.
    const listed = await server.rest("GET", "/api/v1/agents?page_size=1000", { token: owner.key });
    for (const agent of listed.body.data.filter((a: { title: string }) => a.title === "test_agent_http")) await rest("DELETE", `/api/v1/agents/${agent.id}`);
    agentId = await createAgent(RAGFLOW_MINIMAL_DSL, owner, "test_agent_http");
  });

  it("test_create_list_delete_agent_sessions", async () => {
    const created = await rest("POST", `/api/v1/agents/${agentId}/sessions`, {});
    expect(created.body.code).toBe(0);
    expect(created.body.data.agent_id).toBe(agentId);
    const sessionId = created.body.data.id;
    const listed = await server.rest("GET", `/api/v1/agents/${agentId}/sessions?id=${sessionId}`, { token: owner.key });
    expect(listed.body.code).toBe(0);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0].id).toBe(sessionId);
    expect((await rest("DELETE", `/api/v1/agents/${agentId}/sessions`, { ids: [sessionId] })).body).toEqual({ code: 0 });
  });

  it("test_agent_completion_stream_false", async () => {
    const session = await createSession(agentId);
    const answered = await rest("POST", `/api/v1/agents/${agentId}/completions`, { question: "hello", stream: false, session_id: session.id });
    expect(answered.body.code).toBe(0);
    expect(answered.body.data.data.content).toContain("hello");
    expect(answered.body.data.session_id).toBe(session.id);
  });
});

describe("§10.3 agents", () => {
  it("creates an agent, refusing a request without a DSL or a title and a title the tenant has", async () => {
    expect((await rest("POST", "/api/v1/agents", { title: "no dsl" })).body).toEqual({ code: 101, message: "No DSL data in request.", data: false });
    expect((await rest("POST", "/api/v1/agents", { dsl: RAGFLOW_MINIMAL_DSL })).body).toEqual({ code: 101, message: "No title in request.", data: false });
    // A DSL may come as a JSON string; the title is trimmed.
    expect((await rest("POST", "/api/v1/agents", { title: "  strung  ", dsl: JSON.stringify(RAGFLOW_MINIMAL_DSL) })).body).toEqual({ code: 0, message: "success", data: true });
    expect((await rest("POST", "/api/v1/agents", { title: "strung", dsl: RAGFLOW_MINIMAL_DSL })).body).toEqual({ code: 102, message: "Agent with title strung already exists." });
    // Another tenant may use the same title.
    expect((await rest("POST", "/api/v1/agents", { title: "strung", dsl: RAGFLOW_MINIMAL_DSL }, stranger)).body.code).toBe(0);
  });

  it("lists the caller's agents with RAGFlow's fields, filtered by id or title and paged", async () => {
    const id = await createAgent(RAGFLOW_MINIMAL_DSL, owner, "listed agent");
    const listed = await server.rest("GET", `/api/v1/agents?id=${id}`, { token: owner.key });
    expect(listed.body.code).toBe(0);
    const [agent] = listed.body.data;
    expect(Object.keys(agent).sort()).toEqual(
      ["avatar", "canvas_category", "canvas_type", "create_date", "create_time", "description", "dsl", "id", "permission", "title", "update_date", "update_time", "user_id"].sort(),
    );
    expect(agent).toMatchObject({ id, title: "listed agent", user_id: owner.tenantId, permission: "me", canvas_category: "agent_canvas" });
    expect(agent.dsl.components.message.obj.params.content).toEqual(["{sys.query}"]);
    expect(typeof agent.create_time).toBe("number");
    expect(agent.update_date).toMatch(/GMT$/);
    expect((await server.rest("GET", "/api/v1/agents?title=nothing-like-it", { token: owner.key })).body).toEqual({ code: 102, message: "The agent doesn't exist." });
    expect((await server.rest("GET", `/api/v1/agents?id=${id}`, { token: stranger.key })).body).toEqual({ code: 102, message: "The agent doesn't exist." });
    expect((await server.rest("GET", "/api/v1/agents?page_size=0", { token: owner.key })).body).toEqual({ code: 0, data: [] });
    expect((await server.rest("GET", "/api/v1/agents?page=x", { token: owner.key })).body).toMatchObject({ code: 100, message: expect.stringMatching(/^ValueError\(/) });

    // desc is false unless asked: the oldest first.
    const later = await createAgent(RAGFLOW_MINIMAL_DSL, owner, "listed later");
    const ascending = (await server.rest("GET", "/api/v1/agents?page_size=1000", { token: owner.key })).body.data.map((a: { id: string }) => a.id);
    expect(ascending.indexOf(id)).toBeLessThan(ascending.indexOf(later));
    const descending = (await server.rest("GET", "/api/v1/agents?page_size=1000&desc=true", { token: owner.key })).body.data.map((a: { id: string }) => a.id);
    expect(descending.indexOf(later)).toBeLessThan(descending.indexOf(id));
    const strangers = (await server.rest("GET", "/api/v1/agents?page_size=1000", { token: stranger.key })).body.data.map((a: { id: string }) => a.id);
    expect(strangers).not.toContain(id);
  });

  it("updates an agent for its owner only, with RAGFlow's quirk of a DSL sent without a title", async () => {
    const id = await createAgent();
    const path = `/api/v1/agents/${id}`;
    expect((await rest("PUT", path, { description: "Echoes", avatar: null })).body).toEqual({ code: 0, message: "success", data: true });
    expect((await rest("PUT", path, { title: "renamed agent" }, stranger)).body).toEqual({ code: 103, message: "Only owner of canvas authorized for this operation.", data: false });
    expect((await rest("PUT", "/api/v1/agents/unknown", { title: "x" })).body).toEqual({ code: 103, message: "Only owner of canvas authorized for this operation.", data: false });
    const changed = { ...RAGFLOW_MINIMAL_DSL, components: { ...RAGFLOW_MINIMAL_DSL.components, message: { ...RAGFLOW_MINIMAL_DSL.components.message, obj: { component_name: "Message", params: { content: ["Echo: {sys.query}"] } } } } };
    expect((await rest("PUT", path, { dsl: changed })).body).toEqual({ code: 100, message: "KeyError('title')", data: null });
    const listed = (await server.rest("GET", `/api/v1/agents?id=${id}`, { token: owner.key })).body.data[0];
    expect(listed.description).toBe("Echoes");
    expect(listed.dsl.components.message.obj.params.content).toEqual(["Echo: {sys.query}"]);
    expect((await rest("PUT", path, { title: "renamed agent", dsl: changed })).body).toEqual({ code: 0, message: "success", data: true });
  });

  it("deletes an agent for its owner only", async () => {
    const id = await createAgent();
    expect((await rest("DELETE", `/api/v1/agents/${id}`, undefined, stranger)).body).toEqual({ code: 103, message: "Only owner of canvas authorized for this operation.", data: false });
    expect((await rest("DELETE", `/api/v1/agents/${id}`)).body).toEqual({ code: 0, message: "success", data: true });
    expect((await server.rest("GET", `/api/v1/agents?id=${id}`, { token: owner.key })).body).toEqual({ code: 102, message: "The agent doesn't exist." });
  });
});

describe("§10.4 agent sessions", () => {
  it("opens a session with the prologue and a snapshot of the flow, for the agent's tenant only", async () => {
    const id = await createAgent();
    const session = await createSession(id);
    expect(Object.keys(session).sort()).toEqual(["agent_id", "dsl", "id", "message", "source", "user_id"]);
    expect(session).toMatchObject({ agent_id: id, user_id: owner.tenantId, source: "agent", message: [{ role: "assistant", content: DEFAULT_PROLOGUE }] });
    expect(session.dsl.components.begin.obj.component_name).toBe("Begin");
    expect((await createSession(id, owner, "?user_id=visitor-7")).user_id).toBe("visitor-7");

    const welcoming = await createAgent(MESSAGE_ANSWER_DSL);
    expect((await createSession(welcoming)).message).toEqual([{ role: "assistant", content: "Welcome aboard." }]);
    // Cairn does not tell another tenant that an agent exists: RAGFlow's "You cannot access the agent." is for one its team shares.
    expect((await rest("POST", `/api/v1/agents/${id}/sessions`, {}, stranger)).body).toEqual({ code: 102, message: "Agent not found." });
    expect((await rest("POST", "/api/v1/agents/unknown/sessions", {})).body).toEqual({ code: 102, message: "Agent not found." });
  });

  it("lists sessions with their conversation and RAGFlow's fields, the DSL left out on request", async () => {
    const id = await createAgent();
    const session = await createSession(id, owner, "?user_id=lister");
    await rest("POST", `/api/v1/agents/${id}/completions`, { question: "ping", stream: false, session_id: session.id });
    const listed = await server.rest("GET", `/api/v1/agents/${id}/sessions?user_id=lister`, { token: owner.key });
    expect(listed.body.code).toBe(0);
    const [row] = listed.body.data;
    expect(Object.keys(row).sort()).toEqual(
      ["agent_id", "create_date", "create_time", "dsl", "duration", "errors", "exp_user_id", "id", "messages", "name", "round", "source", "thumb_up", "tokens", "update_date", "update_time", "user_id"].sort(),
    );
    expect(row.messages.map((m: { role: string }) => m.role)).toEqual(["assistant", "user", "assistant"]);
    expect(row.messages[2]).toMatchObject({ content: "ping", reference: [] });
    expect(row.messages[0]).not.toHaveProperty("reference");
    const withoutDsl = await server.rest("GET", `/api/v1/agents/${id}/sessions?dsl=false`, { token: owner.key });
    expect(withoutDsl.body.data[0]).not.toHaveProperty("dsl");
    expect((await server.rest("GET", `/api/v1/agents/${id}/sessions?id=unknown`, { token: owner.key })).body).toEqual({ code: 0, data: [] });
    expect((await server.rest("GET", `/api/v1/agents/${id}/sessions`, { token: stranger.key })).body).toEqual({ code: 102, message: `You don't own the agent ${id}.` });
  });

  it("deletes sessions: all of them, some of them, reporting the ones the agent does not own and duplicates", async () => {
    const id = await createAgent();
    const path = `/api/v1/agents/${id}/sessions`;
    expect((await rest("DELETE", path, {})).body).toEqual({ code: 102, message: `Agent ${id} has no sessions` });
    const [a, b, c] = [(await createSession(id)).id, (await createSession(id)).id, (await createSession(id)).id];
    expect((await rest("DELETE", path, { ids: [a, "invalid_id"] })).body).toEqual({ code: 0, data: { success_count: 1, errors: ["The agent doesn't own the session invalid_id"] } });
    expect((await rest("DELETE", path, { ids: [b, b] })).body).toEqual({ code: 0, data: { success_count: 1, errors: [`Duplicate session ids: ${b}`] } });
    expect((await rest("DELETE", path, { ids: ["x", "y"] })).body).toEqual({ code: 102, message: "The agent doesn't own the session x; The agent doesn't own the session y" });
    expect((await rest("DELETE", path, { ids: [c] }, stranger)).body).toEqual({ code: 102, message: `You don't own the agent ${id}` });
    expect((await rest("DELETE", path)).body).toEqual({ code: 0 });
    expect((await server.rest("GET", path, { token: owner.key })).body).toEqual({ code: 0, data: [] });
  });
});

describe("§10.5 agent completions", () => {
  it("streams RAGFlow's frames for the minimal DSL: message deltas, node_finished, message_end, then [DONE]", async () => {
    const id = await createAgent();
    const session = await createSession(id);
    const { json, contentType } = await sse(`/api/v1/agents/${id}/completions`, { question: "hello there", session_id: session.id });
    expect(contentType).toBe("text/event-stream; charset=utf-8");
    expect(json.at(-1)).toBe("[DONE]");
    const events = json.slice(0, -1);
    for (const event of events) {
      expect(Object.keys(event)).toEqual(["event", "message_id", "created_at", "task_id", "data", "session_id"]);
      expect(event).toMatchObject({ task_id: id, session_id: session.id, message_id: events[0].message_id });
      expect(event.message_id).toMatch(/^[0-9a-f]{32}$/);
      expect(Number.isInteger(event.created_at)).toBe(true);
      expect(["message", "message_end", "node_finished"]).toContain(event.event);
    }
    const text = events.filter((e) => e.event === "message").map((e) => e.data.content).join("");
    expect(text).toBe("hello there");
    const finished = events.filter((e) => e.event === "node_finished");
    expect(finished.map((e) => e.data.component_id)).toEqual(["begin", "message"]);
    expect(Object.keys(finished[1].data).sort()).toEqual(["component_id", "component_name", "component_type", "created_at", "elapsed_time", "error", "inputs", "outputs"]);
    expect(finished[1].data).toMatchObject({ component_type: "Message", error: null, outputs: { content: "hello there" } });
    expect(events.filter((e) => e.event === "message_end")).toHaveLength(1);
    expect(events.findIndex((e) => e.event === "message_end")).toBeGreaterThan(events.findIndex((e) => e.event === "message"));
  });

  it("streams a Begin → Message → Answer flow, naming components by their display names, with the trace when asked", async () => {
    const id = await createAgent(MESSAGE_ANSWER_DSL);
    const session = await createSession(id);
    const { json } = await sse(`/api/v1/agents/${id}/completions`, { question: "ahoy", session_id: session.id, return_trace: true });
    const events = json.slice(0, -1);
    expect(events.filter((e) => e.event === "message").map((e) => e.data.content).join("")).toBe("You said: ahoy");
    const finished = events.filter((e) => e.event === "node_finished");
    const echo = finished.find((e) => e.data.component_id === "Message:Echo");
    expect(echo.data).toMatchObject({ component_name: "Echo", component_type: "Message" });
    expect(finished.at(-1).data.trace.map((t: { component_id: string }) => t.component_id)).toEqual(finished.map((e) => e.data.component_id));
    expect(finished.at(-1).data.trace[0].trace[0]).toMatchObject({ component_id: finished[0].data.component_id });
  });

  it("answers once when not streamed, continues a session by its id, and opens one when none is named", async () => {
    const id = await createAgent(MESSAGE_ANSWER_DSL);
    const first = await rest("POST", `/api/v1/agents/${id}/completions`, { question: "one", stream: false });
    expect(first.body.code).toBe(0);
    expect(first.body.data).toMatchObject({ event: "workflow_finished", task_id: id, data: { content: "You said: one", reference: {} } });
    expect(Object.keys(first.body.data.data)).toEqual(expect.arrayContaining(["inputs", "outputs", "elapsed_time", "created_at", "content", "reference"]));
    const sessionId = first.body.data.session_id;
    const second = await rest("POST", `/api/v1/agents/${id}/completions`, { question: "two", stream: false, session_id: sessionId, return_trace: true });
    expect(second.body.data).toMatchObject({ session_id: sessionId, data: { content: "You said: two" } });
    expect(second.body.data.data.trace.length).toBeGreaterThan(0);
    const [listed] = (await server.rest("GET", `/api/v1/agents/${id}/sessions?id=${sessionId}`, { token: owner.key })).body.data;
    expect(listed.messages.map((m: { role: string; content: string }) => `${m.role}:${m.content}`)).toEqual([
      "assistant:Welcome aboard.",
      "user:one",
      "assistant:You said: one",
      "user:two",
      "assistant:You said: two",
    ]);
  });

  it("fills Begin's inputs from the request", async () => {
    const dsl = {
      components: {
        begin: { obj: { component_name: "Begin", params: { query: [{ key: "city", name: "City", type: "line", optional: false }] } }, downstream: ["message"], upstream: [] },
        message: { obj: { component_name: "Message", params: { content: ["Weather for {begin@city}: {sys.query}"] } }, downstream: [], upstream: ["begin"] },
      },
    };
    const id = await createAgent(dsl);
    const answered = await rest("POST", `/api/v1/agents/${id}/completions`, { question: "tomorrow?", stream: false, inputs: { city: { type: "line", value: "Lisbon" } } });
    expect(answered.body.data.data.content).toBe("Weather for Lisbon: tomorrow?");
  });

  it("refuses a session that is not the agent's, and an agent that is not the caller's, as RAGFlow's assertions", async () => {
    const id = await createAgent();
    const other = await createAgent();
    const session = await createSession(other);
    expect((await rest("POST", `/api/v1/agents/${id}/completions`, { question: "x", stream: false, session_id: session.id })).body).toEqual({
      code: 100,
      message: "AssertionError('Session not found!')",
      data: null,
    });
    expect((await rest("POST", `/api/v1/agents/${id}/completions`, { question: "x", stream: false, session_id: session.id }, stranger)).body.message).toBe("AssertionError('Session not found!')");
    expect((await rest("POST", `/api/v1/agents/${id}/completions`, { question: "x", stream: false }, stranger)).body).toEqual({
      code: 100,
      message: "AssertionError('Agent not found.')",
      data: null,
    });
  });
});

describe("§10.6 OpenAI-compatible agent completions", () => {
  const path = (id: string) => `/api/v1/agents_openai/${id}/chat/completions`;

  it("answers the official openai client, not streamed and streamed, in the session it names", async () => {
    const id = await createAgent();
    const client = new OpenAI({ apiKey: owner.key, baseURL: `${server.url}/api/v1/agents_openai/${id}` });
    const answered = await client.chat.completions.create({ model: "model", messages: [{ role: "system", content: "ignored" }, { role: "user", content: "hello openai" }] });
    expect(answered.object).toBe("chat.completion");
    expect(answered.model).toBe(id);
    expect(answered.choices[0].message.content).toBe("hello openai");
    expect(answered.choices[0].finish_reason).toBe("stop");
    expect(answered.usage).toMatchObject({ completion_tokens_details: { reasoning_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 } });
    expect(answered.usage!.total_tokens).toBe(answered.usage!.prompt_tokens + answered.usage!.completion_tokens);

    const session = await createSession(id);
    const stream = await client.chat.completions.create({ model: "model", stream: true, messages: [{ role: "user", content: "streamed words" }], session_id: session.id } as never);
    let text = "";
    for await (const chunk of stream as unknown as AsyncIterable<OpenAI.ChatCompletionChunk>) {
      expect(chunk).toMatchObject({ id: session.id, object: "chat.completion.chunk", model: id });
      text += chunk.choices[0].delta.content ?? "";
    }
    expect(text).toBe("streamed words");
    const [listed] = (await server.rest("GET", `/api/v1/agents/${id}/sessions?id=${session.id}`, { token: owner.key })).body.data;
    expect(listed.messages.at(-1).content).toBe("streamed words");
  });

  it("writes RAGFlow's frames: `data: ` with a space, ending with [DONE]", async () => {
    const id = await createAgent();
    const { json } = await sse(path(id), { model: "m", messages: [{ role: "user", content: "spaced" }], stream: true }, owner.key, "data: ");
    expect(json.at(-1)).toBe("[DONE]");
    expect(json[0]).toEqual({ id: expect.any(String), object: "chat.completion.chunk", model: id, choices: [{ delta: { content: expect.any(String) }, finish_reason: null, index: 0 }] });
  });

  it("checks the required fields before authentication, then RAGFlow's refusals", async () => {
    const id = await createAgent();
    expect((await server.rest("POST", path(id), { body: { messages: [] } })).body).toEqual({ code: 101, message: "required argument are missing: model; ", data: null });
    expect((await server.rest("POST", path(id), { body: { model: "m", messages: [] } })).body).toEqual({ code: 0, message: "`Authorization` can't be empty", data: false });
    expect((await rest("POST", path(id), { model: "m", messages: [] })).body).toEqual({ code: 102, message: "You must provide at least one message." });
    expect((await rest("POST", path(id), { model: "m", messages: [{ role: "user", content: "x" }] }, stranger)).body).toEqual({ code: 102, message: `You don't own the agent ${id}` });
    const systemOnly = await rest("POST", path(id), { model: "m", messages: [{ role: "system", content: "only rules" }] });
    expect(systemOnly.body).toMatchObject({ id, object: "chat.completion", created: null, model: "m", choices: [{ message: { role: "assistant", content: "No valid messages found (user or assistant)." }, finish_reason: "stop" }] });
  });
});

describe("authentication and tenant isolation", () => {
  it("answers every agents route with RAGFlow's API-key refusals", async () => {
    const id = await createAgent();
    const routes: [string, string][] = [
      ["GET", "/api/v1/agents"],
      ["POST", "/api/v1/agents"],
      ["PUT", `/api/v1/agents/${id}`],
      ["DELETE", `/api/v1/agents/${id}`],
      ["POST", `/api/v1/agents/${id}/sessions`],
      ["GET", `/api/v1/agents/${id}/sessions`],
      ["DELETE", `/api/v1/agents/${id}/sessions`],
      ["POST", `/api/v1/agents/${id}/completions`],
    ];
    for (const [method, route] of routes) {
      expect((await server.rest(method, route, {})).body).toEqual({ code: 0, message: "`Authorization` can't be empty", data: false });
      expect((await server.rest(method, route, { token: "ragflow-not-a-key" })).body).toEqual({ code: 109, message: "Authentication error: API key is invalid!", data: false });
    }
    expect((await server.rest("POST", `/api/v1/agents_openai/${id}/chat/completions`, { token: "nope", body: { model: "m", messages: [] } })).body).toEqual({
      code: 109,
      message: "Authentication error: API key is invalid!",
      data: false,
    });
  });

  it("keeps one tenant's agents, sessions and answers from another", async () => {
    const id = await createAgent();
    const session = await createSession(id);
    await rest("POST", `/api/v1/agents/${id}/completions`, { question: "private words", stream: false, session_id: session.id });
    expect((await server.rest("GET", `/api/v1/agents/${id}/sessions`, { token: stranger.key })).body.code).toBe(102);
    expect((await rest("DELETE", `/api/v1/agents/${id}/sessions`, { ids: [session.id] }, stranger)).body.code).toBe(102);
    const streamed = await rest("POST", `/api/v1/agents/${id}/completions`, { question: "x", session_id: session.id }, stranger);
    expect(streamed.body).toEqual({ code: 100, message: "AssertionError('Session not found!')", data: null });
    const [still] = (await server.rest("GET", `/api/v1/agents/${id}/sessions?id=${session.id}`, { token: owner.key })).body.data;
    expect(still.messages).toHaveLength(3);
  });

  it("lets a team member see a shared agent in the application but not use it through the API, as RAGFlow's owner checks", async () => {
    const member = await apiUser(server);
    await server.services.platform.db.getRepository(TenantMember).insert({ tenantId: owner.tenantId, userId: member.tenantId, role: "normal" });
    const created = await rest("POST", "/api/v1/agents", { title: "team agent", dsl: RAGFLOW_MINIMAL_DSL, permission: "team" });
    expect(created.body.code).toBe(0);
    const id = (await server.rest("GET", "/api/v1/agents?title=team%20agent", { token: owner.key })).body.data[0].id;
    expect((await server.rest("GET", "/api/v1/agents?page_size=100", { token: member.key })).body).toEqual({ code: 0, data: [] });
    expect((await rest("POST", `/api/v1/agents/${id}/sessions`, {}, member)).body).toEqual({ code: 102, message: "You cannot access the agent." });
    expect((await rest("POST", `/api/v1/agents/${id}/completions`, { question: "x", stream: false }, member)).body).toEqual({
      code: 100,
      message: "AssertionError('You do not own the agent.')",
      data: null,
    });
    expect((await rest("PUT", `/api/v1/agents/${id}`, { title: "taken over" }, member)).body).toEqual({ code: 103, message: "Only owner of canvas authorized for this operation.", data: false });
  });
});
