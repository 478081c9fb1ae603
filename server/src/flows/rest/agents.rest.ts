import { failure, jsonResult, RETURN_CODES, success } from "../../rest/envelope";
import { epochMillis, rfc1123 } from "../../rest/presenters";
import { PythonException } from "../../rest/python-repr";
import { authenticatedRoute, type AuthenticatedRestContext, type RestRoute } from "../../rest/rest-route";
import type { RestErrorTable } from "../../rest/error-table";
import { answering, pythonInt, refuse, uniqueIds } from "../../knowledge/rest/scope";
import type { SignedIn } from "../../policies/principal";
import { DomainError } from "../../platform/errors";
import type { Services } from "../../platform/services";
import { withDefaults } from "../../platform/param-spec";
import { componentNamed } from "../components";
import { BEGIN_ID, type FlowDsl } from "../dsl";
import { maskSecrets } from "../flow-secrets";
import type { Flow } from "../flow.entity";
import type { FlowRun } from "../flow-run.entity";
import type { FlowSession, FlowSessionMessage } from "../flow-session.entity";

/**
 * RAGFlow's agents and agent sessions (API contract §10.1, §10.3, §10.4) over the flow services: an agent
 * is a flow (RAGFlow's `title` is its name), an agent session a flow session of source "api" with its own
 * state, so that running an agent never changes the saved flow.
 */

type Json = Record<string, unknown>;

/** RAGFlow's owner check on agents answers with code 103 in the `json_result` envelope. */
const OWNER_ONLY = jsonResult(RETURN_CODES.OPERATING_ERROR, "Only owner of canvas authorized for this operation.", false);

/** An agent as `GET /agents` lists it (§10.1). */
export function presentAgent(flow: Flow): Json {
  return {
    id: flow.id,
    title: flow.title,
    description: flow.description,
    avatar: flow.avatar,
    user_id: flow.tenantId,
    permission: flow.permission,
    canvas_type: null,
    canvas_category: "agent_canvas",
    dsl: maskSecrets(flow.dsl),
    create_time: epochMillis(flow.createdAt),
    create_date: rfc1123(flow.createdAt),
    update_time: epochMillis(flow.updatedAt),
    update_date: rfc1123(flow.updatedAt),
  };
}

/** Begin's prologue, its default when the flow sets none: what a session opens with. */
export function prologueOf(dsl: FlowDsl): string {
  const begin = dsl.components[BEGIN_ID]?.obj;
  const params = withDefaults(componentNamed(begin?.component_name ?? "Begin")?.params ?? [], begin?.params ?? {});
  return typeof params.prologue === "string" ? params.prologue : "";
}

/** A session's message as listed (§10.4): an answer carries its cited chunks' short form (§7.1). */
function presentMessage(message: FlowSessionMessage): Json {
  const out: Json = { role: message.role, content: message.content, id: message.id, created_at: new Date(message.createdAt).getTime() / 1000 };
  if (message.role === "assistant") {
    out.reference = (message.reference?.chunks ?? []).map((c) => ({
      id: c.id,
      content: c.content,
      document_id: c.document_id,
      document_name: c.document_name,
      dataset_id: c.dataset_id,
      image_id: c.image_id,
      positions: c.positions,
    }));
  }
  return out;
}

/**
 * A session as listed (§10.4). It opens with the prologue, as RAGFlow stores it; its token count, duration and
 * rounds add up its runs, and `errors` is the last run's failure.
 */
export function presentAgentSession(session: FlowSession, runs: FlowRun[], withDsl: boolean): Json {
  const ended = runs.filter((r) => r.startedAt && r.finishedAt);
  return {
    id: session.id,
    agent_id: session.flowId,
    user_id: session.userId,
    exp_user_id: null,
    name: null,
    messages: [{ role: "assistant", content: prologueOf(session.dsl) }, ...session.messages.map(presentMessage)],
    source: "agent",
    ...(withDsl ? { dsl: maskSecrets(session.dsl) } : {}),
    tokens: runs.reduce((sum, r) => sum + r.tokens, 0),
    duration: ended.reduce((sum, r) => sum + (r.finishedAt!.getTime() - r.startedAt!.getTime()), 0) / 1000,
    round: runs.length,
    thumb_up: 0,
    errors: runs.find((r) => r.error)?.error ?? null,
    create_time: epochMillis(session.createdAt),
    create_date: rfc1123(session.createdAt),
    update_time: epochMillis(session.updatedAt),
    update_date: rfc1123(session.updatedAt),
  };
}

const isRefusal = (error: unknown) => error instanceof DomainError && (error.kind === "NOT_FOUND" || error.kind === "FORBIDDEN");

/** The agent if the caller may see it (its tenant's, or shared with its team), else null. */
export async function visibleAgent(services: Services, principal: SignedIn, agentId: string): Promise<Flow | null> {
  try {
    return await services.flows.accessible(principal, agentId, "read");
  } catch (error) {
    if (isRefusal(error)) return null;
    throw error;
  }
}

/**
 * The caller's agent, or null. RAGFlow lets only the tenant that owns an agent use it through the API
 * (`user_id == tenant_id`), whatever its team may see in the web application.
 */
export async function ownAgent(services: Services, principal: SignedIn, agentId: string): Promise<Flow | null> {
  const flow = await visibleAgent(services, principal, agentId);
  return flow?.tenantId === principal.tenantId ? flow : null;
}

/** `json.loads` of a DSL given as a JSON string; an object is taken as it is. */
function parseDsl(value: unknown): FlowDsl {
  if (typeof value !== "string") return value as FlowDsl;
  try {
    return JSON.parse(value) as FlowDsl;
  } catch (error) {
    throw new PythonException("JSONDecodeError", (error as Error).message);
  }
}

/** `str.strip()` of a title; anything else has no strip in Python. */
function strippedTitle(value: unknown): string {
  if (typeof value !== "string") throw new PythonException("AttributeError", `'${value === null ? "NoneType" : typeof value === "number" ? "int" : typeof value}' object has no attribute 'strip'`);
  return value.trim();
}

const text = (value: unknown): string | null => (value === undefined || value === null ? null : String(value));

/** How the flow services' refusals read in RAGFlow's words. */
const AGENT_ERRORS: RestErrorTable = {
  "flow.errors.titleTaken": (params) => `Agent with title ${String(params.name)} already exists.`,
};

/** RAGFlow's `orderby` column → the flow's field; other columns sort by the last save, as RAGFlow's default. */
const AGENT_ORDER: Record<string, "createdAt" | "updatedAt" | "title"> = { create_time: "createdAt", update_time: "updatedAt", create_date: "createdAt", update_date: "updatedAt", title: "title" };
const SESSION_ORDER: Record<string, "createdAt" | "updatedAt"> = { create_time: "createdAt", update_time: "updatedAt", create_date: "createdAt", update_date: "updatedAt" };

async function listAgents({ services, principal, query }: AuthenticatedRestContext) {
  return answering(async () => {
    // RAGFlow lists the agents of the key's tenant only, not those a team shares with it.
    const filter = { tenantId: principal.tenantId, id: query.id || undefined, title: query.title || undefined };
    if (filter.id || filter.title) {
      const { total } = await services.flows.list(principal, { ...filter, pageSize: 0 });
      if (total === 0) throw refuse("The agent doesn't exist.");
    }
    const { items } = await services.flows.list(principal, {
      ...filter,
      page: Math.max(1, pythonInt(query.page, 1)),
      pageSize: Math.max(0, pythonInt(query.page_size, 30)),
      orderBy: AGENT_ORDER[query.orderby ?? ""] ?? "updatedAt",
      // False unless given, then true unless it says false (contract §1.9).
      desc: query.desc !== undefined && query.desc.toLowerCase() !== "false",
    });
    return success(items.map(presentAgent));
  });
}

async function createAgent({ services, principal, body }: AuthenticatedRestContext) {
  if (body.dsl === undefined || body.dsl === null) return jsonResult(RETURN_CODES.ARGUMENT_ERROR, "No DSL data in request.", false);
  const dsl = parseDsl(body.dsl);
  if (body.title === undefined || body.title === null) return jsonResult(RETURN_CODES.ARGUMENT_ERROR, "No title in request.", false);
  const title = strippedTitle(body.title);
  await services.flows.create(principal, { title, dsl, description: text(body.description), avatar: text(body.avatar), ...(body.permission ? { permission: String(body.permission) } : {}) });
  return jsonResult(RETURN_CODES.SUCCESS, "success", true);
}

async function updateAgent({ services, principal, params, body }: AuthenticatedRestContext) {
  const given = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null));
  const dsl = given.dsl === undefined ? undefined : parseDsl(given.dsl);
  const title = given.title === undefined ? undefined : strippedTitle(given.title);
  if (!(await ownAgent(services, principal, params.agentId))) return OWNER_ONLY;
  await services.flows.update(principal, params.agentId, {
    ...(title !== undefined ? { title } : {}),
    ...(dsl !== undefined ? { dsl } : {}),
    ...("description" in given ? { description: text(given.description) } : {}),
    ...("avatar" in given ? { avatar: text(given.avatar) } : {}),
    ...("permission" in given ? { permission: String(given.permission) } : {}),
  });
  // RAGFlow names the saved version after the title it was sent: a DSL without a title is saved, then the
  // request fails on the missing key (contract §10.3). Clients read this answer, so it is kept.
  if (dsl !== undefined && title === undefined) throw new PythonException("KeyError", "title");
  return jsonResult(RETURN_CODES.SUCCESS, "success", true);
}

async function deleteAgent({ services, principal, params }: AuthenticatedRestContext) {
  if (!(await ownAgent(services, principal, params.agentId))) return OWNER_ONLY;
  await services.flows.destroy(principal, params.agentId);
  return jsonResult(RETURN_CODES.SUCCESS, "success", true);
}

async function createSession({ services, principal, params, query }: AuthenticatedRestContext) {
  return answering(async () => {
    // An agent the caller may not see is not found (Cairn does not tell that it exists); one its team shares is not its to use here.
    const agent = await visibleAgent(services, principal, params.agentId);
    if (!agent) throw refuse("Agent not found.");
    if (agent.tenantId !== principal.tenantId) throw refuse("You cannot access the agent.");
    const session = await services.flowRuns.createSession(principal, agent.id, { userId: query.user_id ?? principal.tenantId, source: "api" });
    return success({
      id: session.id,
      agent_id: agent.id,
      user_id: session.userId,
      message: [{ role: "assistant", content: prologueOf(session.dsl) }],
      source: "agent",
      dsl: maskSecrets(session.dsl),
    });
  });
}

const pythonFalse = (value: string | undefined) => value === "False" || value === "false";

async function listSessions({ services, principal, params, query }: AuthenticatedRestContext) {
  return answering(async () => {
    if (!(await ownAgent(services, principal, params.agentId))) throw refuse(`You don't own the agent ${params.agentId}.`);
    const sessions = await services.flowRuns.listSessions(principal, params.agentId, {
      page: Math.max(1, pythonInt(query.page, 1)),
      pageSize: Math.max(0, pythonInt(query.page_size, 30)),
      orderBy: SESSION_ORDER[query.orderby ?? ""] ?? "updatedAt",
      desc: !pythonFalse(query.desc),
      id: query.id || undefined,
      userId: query.user_id || undefined,
    });
    const runs = await Promise.all(sessions.map((s) => services.flowRuns.list(principal, s.flowId, { sessionId: s.id, pageSize: 200 })));
    return success(sessions.map((s, i) => presentAgentSession(s, runs[i], !pythonFalse(query.dsl))));
  });
}

async function deleteSessions({ services, principal, params, body }: AuthenticatedRestContext) {
  return answering(async () => {
    const { agentId } = params;
    if (!(await ownAgent(services, principal, agentId))) throw refuse(`You don't own the agent ${agentId}`);
    const all = await services.flowRuns.listSessions(principal, agentId, { pageSize: Number.MAX_SAFE_INTEGER, orderBy: "createdAt", desc: false });
    if (all.length === 0) throw refuse(`Agent ${agentId} has no sessions`);
    const requested = Array.isArray(body.ids) && body.ids.length > 0 ? body.ids.map(String) : all.map((s) => s.id);
    const { unique, duplicateErrors } = uniqueIds(requested, "session");
    const owned = new Set(all.map((s) => s.id));
    const errors: string[] = [];
    const deletable = unique.filter((id) => {
      if (owned.has(id)) return true;
      errors.push(`The agent doesn't own the session ${id}`);
      return false;
    });
    const deleted = deletable.length > 0 ? (await services.flowRuns.deleteSessions(principal, agentId, deletable)).length : 0;
    // RAGFlow reports the sessions it does not own before the duplicates, each list on its own (§1.11).
    if (errors.length > 0) return deleted > 0 ? success({ success_count: deleted, errors }) : failure(RETURN_CODES.DATA_ERROR, errors.join("; "));
    if (duplicateErrors.length > 0) return deleted > 0 ? success({ success_count: deleted, errors: duplicateErrors }) : failure(RETURN_CODES.DATA_ERROR, duplicateErrors.join(";"));
    return success();
  });
}

export const agentRestRoutes: RestRoute[] = [
  authenticatedRoute("GET", "/api/v1/agents", "apiKey", listAgents),
  authenticatedRoute("POST", "/api/v1/agents", "apiKey", createAgent, AGENT_ERRORS),
  authenticatedRoute("PUT", "/api/v1/agents/:agentId", "apiKey", updateAgent, AGENT_ERRORS),
  authenticatedRoute("DELETE", "/api/v1/agents/:agentId", "apiKey", deleteAgent),
  authenticatedRoute("POST", "/api/v1/agents/:agentId/sessions", "apiKey", createSession),
  authenticatedRoute("GET", "/api/v1/agents/:agentId/sessions", "apiKey", listSessions),
  authenticatedRoute("DELETE", "/api/v1/agents/:agentId/sessions", "apiKey", deleteSessions),
];
