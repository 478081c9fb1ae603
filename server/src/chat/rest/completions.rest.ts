import { success } from "../../rest/envelope";
import { PythonException } from "../../rest/python-repr";
import { authenticatedRoute, type AuthenticatedRestContext, type RestRoute } from "../../rest/rest-route";
import { can } from "../../policies";
import type { SignedIn } from "../../policies/principal";
import { conversationResource } from "../conversation.service";
import type { KnowledgeBase } from "../../knowledge/knowledge-base.entity";
import { answering, refuse } from "../../knowledge/rest/scope";
import { DomainError, messageForClient } from "../../platform/errors";
import { parseMetadataCondition } from "../../knowledge/metadata-condition";
import type { Services } from "../../platform/services";
import type { AnswerEvent } from "../answer-stream";
import type { ChatAssistant } from "../assistant.entity";
import type { Conversation } from "../conversation.entity";
import { audioEncoder } from "../speech";
import type { Message } from "../message.entity";
import { DEFAULT_SESSION_NAME, ownChat, presentReference } from "./sessions.rest";
import { pushedEvents } from "../../platform/runs/pushed-events";
import { bridgeToSse, openEventStream, pyFloat, writeFrame } from "../../platform/runs/sse";

/**
 * RAGFlow's native chat completions (API contract §8): `POST /api/v1/chats/{chat_id}/completions`, SSE
 * (v0.24.0 deltas, a final frame, `data:{"code": 0, "data": true}` last) or one JSON answer. The question
 * goes through ConversationService.ask like the chat page's: stored, answered in the background by the
 * same pipeline, and streamed here from the events this process publishes.
 */

type Json = Record<string, unknown>;

/** Keys of the body that are not prompt variables. */
const RESERVED = new Set(["question", "stream", "session_id", "name", "user_id", "metadata_condition", "quote", "doc_ids", "reasoning"]);

/** RAGFlow streams str(KeyError(...)): the message in quotes. */
function errorText(error: unknown): string {
  if (error instanceof DomainError && error.messageKey === "errors.conversation.missParameter") return `'${error.message}'`;
  return error instanceof PythonException ? error.message : messageForClient("rest completions", error);
}

function streamFlag(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === "string") return !["false", "0", ""].includes(value.toLowerCase());
  return Boolean(value);
}

function quoteFlag(value: unknown): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value.toLowerCase() !== "false";
  return Boolean(value);
}

/** Documents of the chat's knowledge bases meeting a metadata condition (§2.8); none: nothing is retrievable. */
export async function documentsForCondition(services: Services, kbs: KnowledgeBase[], condition: unknown): Promise<string[] | undefined> {
  const parsed = parseMetadataCondition(condition);
  return parsed ? services.assistants.documentsMeeting(kbs, parsed) : undefined;
}

function documentIdsOf(value: unknown): string[] | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const ids = Array.isArray(value) ? value.map(String) : String(value).split(",");
  const cleaned = ids.map((id) => id.trim()).filter((id) => id !== "");
  return cleaned.length > 0 ? cleaned : undefined;
}

async function completions(context: AuthenticatedRestContext): Promise<unknown> {
  const { services, principal, params, body, res } = context;
  return answering(async () => {
    const chat = await ownChat(services, principal, params.chatId);
    if (!chat) throw refuse(`You don't own the chat ${params.chatId}`);
    const sessionId = body.session_id ? String(body.session_id) : "";
    let session: Conversation | null = null;
    if (sessionId) {
      session = await services.conversations.apiSession(chat.id, sessionId);
      if (!session || !can(principal, "use", conversationResource(session))) throw refuse(`You don't own the session ${sessionId}`);
    }
    if ("metadata_condition" in body && body.metadata_condition !== null && (typeof body.metadata_condition !== "object" || Array.isArray(body.metadata_condition))) {
      throw refuse("metadata_condition must be an object.");
    }
    const stream = streamFlag(body.stream);
    if (!session) return newSession(services, principal, chat, body, stream, res);
    return answer(services, principal, chat, session, body, stream, context);
  });
}

/** Without a session: a new one, answered with the opener only (no model call). */
async function newSession(services: Services, principal: SignedIn, chat: ChatAssistant, body: Json, stream: boolean, res: AuthenticatedRestContext["res"]) {
  const name = body.name === undefined || body.name === null || String(body.name).trim() === "" ? DEFAULT_SESSION_NAME : String(body.name);
  const session = await services.conversations.create({ principal }, chat.id, { name, userId: body.user_id ? String(body.user_id) : "", source: "api" });
  const data = { answer: chat.opener, reference: {}, audio_binary: null, id: null, session_id: session.id };
  if (!stream) return success(data);
  openEventStream(res);
  writeFrame(res, { code: 0, message: "", data });
  writeFrame(res, { code: 0, message: "", data: true });
  res.end();
  return undefined;
}

async function answer(services: Services, principal: SignedIn, chat: ChatAssistant, session: Conversation, body: Json, stream: boolean, context: AuthenticatedRestContext) {
  const { res } = context;
  const variables = Object.fromEntries(Object.entries(body).filter(([key]) => !RESERVED.has(key)));
  const kbs = await services.conversations.knowledgeBasesOf(chat);
  const fromCondition = await documentsForCondition(services, kbs, body.metadata_condition);
  const named = documentIdsOf(body.doc_ids);
  const documentIds = fromCondition && named ? named.filter((id) => fromCondition.includes(id)) : (fromCondition ?? named);
  const withDatasets = kbs.length > 0;
  const encodeAudio = chat.tts ? await audioEncoder(services.models, chat.tenantId) : null;

  if (!stream) {
    try {
      const asked = await services.conversations.ask({ principal }, session.id, { question: String(body.question ?? ""), variables, documentIds, quote: quoteFlag(body.quote) });
      await asked.finished;
      const row = await services.conversations.message({ principal }, asked.answer.id);
      if (row.status === "failed") throw new PythonException("Exception", row.error ?? "failed");
      const audio = encodeAudio ? await encodeAudio(row.content) : null;
      return success(completionData(row, session.id, withDatasets, audio));
    } catch (error) {
      if (error instanceof DomainError && error.messageKey === "errors.conversation.missParameter") throw new PythonException("KeyError", error.message);
      throw error;
    }
  }

  const events = pushedEvents<AnswerEvent>();
  let messageId: string | null = null;
  let clientGone = false;
  const question = { question: String(body.question ?? ""), variables, documentIds, quote: quoteFlag(body.quote) };
  async function* frames(): AsyncGenerator<Json> {
    try {
      const asked = await services.conversations.ask({ principal }, session.id, question, events.push);
      void asked.finished.then(events.end);
      messageId = asked.answer.id;
      const createdAt = asked.answer.createdAt.getTime() / 1000;
      // Nothing retrieved with an empty response set: one final frame with the empty response (§8.3).
      let emptyResponse = false;
      for await (const event of events) {
        if (event.status === "failed") {
          const message = event.error ?? "failed";
          yield { code: 500, message, data: { answer: `**ERROR**: ${message}`, reference: [] } };
        } else if (event.status === "done" || event.status === "stopped") {
          if (clientGone || (!withDatasets && !emptyResponse)) continue;
          const row = await services.conversations.message({ principal }, messageId);
          yield {
            code: 0,
            data: {
              answer: emptyResponse ? row.content : "",
              reference: presentReference(row.reference),
              prompt: row.prompt ?? "",
              created_at: pyFloat(createdAt),
              final: true,
              audio_binary: null,
              id: messageId,
              session_id: session.id,
            },
          };
        } else if (event.delta === undefined) {
          if (event.reference) emptyResponse = withDatasets && event.reference.chunks.length === 0 && chat.emptyResponse !== "";
        } else if (!emptyResponse) {
          const data: Json = { answer: event.delta, reference: { chunks: [] }, audio_binary: encodeAudio ? await encodeAudio(event.delta) : null };
          if (!withDatasets) Object.assign(data, { prompt: "", created_at: pyFloat(createdAt) });
          yield { code: 0, data: { ...data, final: false, id: messageId, session_id: session.id } };
        }
      }
    } catch (error) {
      const message = errorText(error);
      yield { code: 500, message, data: { answer: `**ERROR**: ${message}`, reference: [] } };
    }
    yield { code: 0, data: true };
  }
  // A client that goes away stops the answer, as the chat page's stop button does; what was written stays.
  const stop = () => {
    clientGone = true;
    if (messageId) void services.conversations.stop({ principal }, messageId).catch(() => undefined);
  };
  await bridgeToSse(res, frames(), { onDisconnect: stop });
  return undefined;
}

/** §8.2's data of a finished answer. */
function completionData(row: Message, sessionId: string, withDatasets: boolean, audio: string | null): Json {
  return {
    answer: row.content,
    reference: withDatasets ? presentReference(row.reference) : { chunks: [] },
    prompt: withDatasets ? (row.prompt ?? "") : "",
    created_at: row.createdAt.getTime() / 1000,
    audio_binary: audio,
    id: row.id,
    session_id: sessionId,
  };
}


export const completionRestRoutes: RestRoute[] = [authenticatedRoute("POST", "/api/v1/chats/:chatId/completions", "apiKey", completions)];
