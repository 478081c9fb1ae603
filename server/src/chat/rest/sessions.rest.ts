import { failure, RETURN_CODES, success } from "../../rest/envelope";
import { epochMillis, rfc1123 } from "../../rest/presenters";
import { PythonException } from "../../rest/python-repr";
import { authenticatedRoute, type AuthenticatedRestContext, type RestRoute } from "../../rest/rest-route";
import { can } from "../../policies";
import type { SignedIn } from "../../policies/principal";
import { conversationResource } from "../conversation.service";
import { answering, pythonInt, refuse, uniqueIds } from "../../knowledge/rest/scope";
import { DomainError } from "../../platform/errors";
import type { Services } from "../../platform/services";
import type { ChatAssistant } from "../assistant.entity";
import type { Conversation } from "../conversation.entity";
import type { Message, MessageReference, ReferenceChunk } from "../message.entity";

/**
 * RAGFlow's sessions of a chat assistant (API contract §7): conversations of source 'api' (the chat
 * page's are listed too, as RAGFlow lists every conversation of a dialog), over ConversationService.
 */

type Json = Record<string, unknown>;

export const DEFAULT_SESSION_NAME = "New session";

/** A reference chunk as the REST surfaces give it (RAGFlow's chunks_format): without Cairn's page. */
export function presentReferenceChunk(chunk: ReferenceChunk): Json {
  return {
    id: chunk.id,
    content: chunk.content,
    document_id: chunk.document_id,
    document_name: chunk.document_name,
    dataset_id: chunk.dataset_id,
    image_id: chunk.image_id,
    positions: chunk.positions,
    url: chunk.url,
    similarity: chunk.similarity,
    vector_similarity: chunk.vector_similarity,
    term_similarity: chunk.term_similarity,
    doc_type: chunk.doc_type,
  };
}

/** The `reference` of §8.2: total, chunks, doc_aggs. */
export function presentReference(reference: MessageReference | null): Json {
  if (!reference) return { chunks: [] };
  return { total: reference.total, chunks: reference.chunks.map(presentReferenceChunk), doc_aggs: reference.doc_aggs };
}

/** A stored message as a session lists it (§7.1); answers carry their cited chunks' short form. */
function presentMessage(message: Message, withReference: boolean): Json {
  const out: Json = { role: message.role, content: message.content, id: message.id, created_at: message.createdAt.getTime() / 1000 };
  if (withReference && message.role === "assistant") {
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
 * A RAGFlow session always opens with the assistant's prologue, even an empty one; Cairn stores the opener
 * only when there is one, so a conversation without it gets the empty prologue here.
 */
function withPrologue(messages: Json[], withReferences = false): Json[] {
  if (messages[0]?.role === "assistant") return messages;
  return [{ role: "assistant", content: "", ...(withReferences ? { reference: [] } : {}) }, ...messages];
}

export function presentSession(conversation: Conversation, messages: Message[], withReferences = false): Json {
  return {
    id: conversation.id,
    chat_id: conversation.assistantId,
    name: conversation.name,
    messages: withPrologue(messages.map((m) => presentMessage(m, withReferences)), withReferences),
    user_id: conversation.userId,
    create_time: epochMillis(conversation.createdAt),
    create_date: rfc1123(conversation.createdAt),
    update_time: epochMillis(conversation.updatedAt),
    update_date: rfc1123(conversation.updatedAt),
  };
}

/** The caller's live chat, or null. */
export async function ownChat(services: Services, principal: SignedIn, chatId: string): Promise<ChatAssistant | null> {
  try {
    return await services.conversations.usableAssistant({ principal }, chatId);
  } catch (error) {
    if (error instanceof DomainError && error.kind === "NOT_FOUND") return null;
    throw error;
  }
}

const text = (value: unknown): string => (value === undefined || value === null ? "" : String(value));

async function createSession({ services, principal, params, body }: AuthenticatedRestContext) {
  return answering(async () => {
    if (!(await ownChat(services, principal, params.chatId))) throw refuse("You do not own the assistant.");
    const name = "name" in body ? text(body.name) : DEFAULT_SESSION_NAME;
    if (name.trim() === "") throw refuse("`name` can not be empty.");
    const conversation = await services.conversations.create({ principal }, params.chatId, { name, userId: text(body.user_id), source: "api" });
    const messages = (await services.conversations.messagesOf([conversation.id])).get(conversation.id) ?? [];
    return success({ ...presentSession(conversation, messages), messages: withPrologue(messages.map((m) => ({ role: m.role, content: m.content }))) });
  });
}

const UPDATABLE = new Set(["name", "user_id"]);

async function updateSession({ services, principal, params, body }: AuthenticatedRestContext) {
  return answering(async () => {
    const conversation = await services.conversations.apiSession(params.chatId, params.sessionId);
    if (!conversation) throw refuse("Session does not exist");
    const chat = await ownChat(services, principal, params.chatId);
    if (!chat || !can(principal, "manage", conversationResource(conversation))) throw refuse("You do not own the session");
    if ("message" in body || "messages" in body) throw refuse("`message` can not be change");
    if ("reference" in body) throw refuse("`reference` can not be change");
    if ("name" in body && text(body.name).trim() === "") throw refuse("`name` can not be empty.");
    const unknown = Object.keys(body).find((key) => !UPDATABLE.has(key));
    if (unknown) throw new PythonException("ValueError", `Unknown field '${unknown}' of the session`);
    await services.conversations.update({ principal }, conversation.id, {
      ...("name" in body ? { name: text(body.name) } : {}),
      ...("user_id" in body ? { userId: text(body.user_id) } : {}),
    });
    return success();
  });
}

async function listSessions({ services, principal, params, query }: AuthenticatedRestContext) {
  return answering(async () => {
    if (!(await ownChat(services, principal, params.chatId))) throw refuse(`You don't own the assistant ${params.chatId}.`);
    const sessions = await services.conversations.listSessions(principal, params.chatId, {
      page: Math.max(1, pythonInt(query.page, 1)),
      pageSize: Math.max(0, pythonInt(query.page_size, 30)),
      orderBy: query.orderby ?? "create_time",
      desc: !(query.desc === "False" || query.desc === "false"),
      id: query.id || undefined,
      name: query.name || undefined,
      userId: query.user_id || undefined,
    });
    const messages = await services.conversations.messagesOf(sessions.map((s) => s.id));
    return success(sessions.map((s) => presentSession(s, messages.get(s.id) ?? [], true)));
  });
}

async function deleteSessions({ services, principal, params, body }: AuthenticatedRestContext) {
  return answering(async () => {
    if (!(await ownChat(services, principal, params.chatId))) throw refuse("You don't own the chat");
    const requested = Array.isArray(body.ids) ? body.ids.map(String) : [];
    const all = await services.conversations.listSessions(principal, params.chatId, { pageSize: Number.MAX_SAFE_INTEGER });
    if (requested.length === 0) {
      await services.conversations.destroy({ principal }, all.map((s) => s.id));
      return success();
    }
    const { unique, duplicateErrors } = uniqueIds(requested, "session");
    const owned = new Set(all.map((s) => s.id));
    const errors: string[] = [];
    const deletable = unique.filter((id) => {
      if (owned.has(id)) return true;
      errors.push(`The chat doesn't own the session ${id}`);
      return false;
    });
    const deleted = deletable.length > 0 ? await services.conversations.destroy({ principal }, deletable) : 0;
    if (deleted === 0) return failure(RETURN_CODES.DATA_ERROR, [...errors, ...duplicateErrors].join("; "));
    if (errors.length > 0 || duplicateErrors.length > 0) return success({ success_count: deleted, errors: [...errors, ...duplicateErrors] });
    return success();
  });
}

export const sessionRestRoutes: RestRoute[] = [
  authenticatedRoute("POST", "/api/v1/chats/:chatId/sessions", "apiKey", createSession),
  authenticatedRoute("PUT", "/api/v1/chats/:chatId/sessions/:sessionId", "apiKey", updateSession),
  authenticatedRoute("GET", "/api/v1/chats/:chatId/sessions", "apiKey", listSessions),
  authenticatedRoute("DELETE", "/api/v1/chats/:chatId/sessions", "apiKey", deleteSessions),
];
