import { jsonResult, RETURN_CODES } from "../../rest/envelope";
import { openRoute, type RestContext, type RestRoute } from "../../rest/rest-route";
import { isSignedIn, type SignedIn } from "../../policies/principal";
import { answering, refuse } from "../../knowledge/rest/scope";
import { countTokens } from "../../models/tokens";
import { messageForClient } from "../../platform/errors";
import { PythonException } from "../../rest/python-repr";
import { pushedEvents } from "../../platform/runs/pushed-events";
import type { Turn } from "../answer/pipeline";
import type { AnswerEvent } from "../answer-stream";
import type { MessageReference } from "../message.entity";
import { documentsForCondition } from "./completions.rest";
import { ownChat, presentReferenceChunk } from "./sessions.rest";
import { bridgeToSse, rawFrame } from "../../platform/runs/sse";

/**
 * The OpenAI-compatible chat completions of a chat assistant (API contract §9):
 * `POST /api/v1/chats_openai/{chat_id}/chat/completions`, streamed as `chat.completion.chunk` frames
 * ending with `data:[DONE]`, or one `chat.completion`. The conversation comes whole with each request; it
 * is stored as a new service API conversation and answered through ConversationService like every other
 * surface's, so it is listed with the chat's sessions and can be stopped (a client that goes away stops
 * it). Required fields are checked before authentication, as RAGFlow does.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** RAGFlow's token_required, inside the handler because the field check comes first here. */
export async function authenticateApiKey(context: RestContext): Promise<{ principal: SignedIn } | { refusal: Json }> {
  const header = context.req.headers.authorization?.trim() ?? "";
  if (header === "") return { refusal: jsonResult(RETURN_CODES.SUCCESS, "`Authorization` can't be empty", false) };
  const words = header.split(/\s+/);
  if (words.length < 2) return { refusal: jsonResult(RETURN_CODES.SUCCESS, "Please check your authorization format.", false) };
  const principal = await context.services.apiTokens.authenticate(words[1]);
  if (!principal || !isSignedIn(principal)) return { refusal: jsonResult(RETURN_CODES.AUTHENTICATION_ERROR, "Authentication error: API key is invalid!", false) };
  return { principal };
}

function referenceList(reference: MessageReference | null, metadata: { include: boolean; fields?: string[] }, documentMeta: Map<string, Json>): Json[] {
  return (reference?.chunks ?? []).map((chunk) => {
    const out = presentReferenceChunk(chunk);
    if (metadata.include) {
      const meta = documentMeta.get(chunk.document_id) ?? {};
      out.document_metadata = metadata.fields ? Object.fromEntries(Object.entries(meta).filter(([key]) => metadata.fields!.includes(key))) : meta;
    }
    return out;
  });
}

async function chatCompletions(context: RestContext): Promise<unknown> {
  const { services, params, body, res } = context;
  const missing = ["model", "messages"].filter((key) => !(key in body));
  if (missing.length > 0) return jsonResult(RETURN_CODES.ARGUMENT_ERROR, `required argument are missing: ${missing.join(",")}; `);
  const authenticated = await authenticateApiKey(context);
  if ("refusal" in authenticated) return authenticated.refusal;
  const { principal } = authenticated;

  return answering(async () => {
    const extra = body.extra_body ?? {};
    if (!isObject(extra)) throw refuse("extra_body must be an object.");
    const referenceMetadata = extra.reference_metadata ?? {};
    if (!isObject(referenceMetadata)) throw refuse("reference_metadata must be an object.");
    if ("fields" in referenceMetadata && referenceMetadata.fields !== null && !Array.isArray(referenceMetadata.fields)) throw refuse("reference_metadata.fields must be an array.");
    const messages = Array.isArray(body.messages) ? (body.messages as unknown[]).filter(isObject) : [];
    if (messages.length === 0) throw refuse("You have to provide messages.");
    if (messages.at(-1)?.role !== "user") throw refuse("The last content of this conversation is not from user.");
    const chat = await ownChat(services, principal, params.chatId);
    if (!chat) throw refuse(`You don't own the chat ${params.chatId}`);
    if ("metadata_condition" in extra && extra.metadata_condition !== null && !isObject(extra.metadata_condition)) throw refuse("metadata_condition must be an object.");

    // System messages and the assistant's leading ones (an opener) are not part of the conversation.
    const turns: Turn[] = messages
      .filter((m) => m.role === "user" || m.role === "assistant")
      .map((m) => ({ role: m.role as Turn["role"], content: typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? "") }));
    while (turns.length > 0 && turns[0].role === "assistant") turns.shift();
    const kbs = await services.conversations.knowledgeBasesOf(chat);
    const documentIds = await documentsForCondition(services, kbs, extra.metadata_condition);
    const wantsReference = extra.reference === true || extra.reference === "true";
    const metadata = { include: referenceMetadata.include === true, fields: Array.isArray(referenceMetadata.fields) ? referenceMetadata.fields.map(String) : undefined };
    const stream = body.stream === undefined || body.stream === null ? true : Boolean(body.stream);
    const id = `chatcmpl-${chat.id}`;
    const created = Math.floor(Date.now() / 1000);
    const lastUser = turns.filter((t) => t.role === "user").at(-1)?.content ?? "";
    const asking = { question: turns.at(-1)!.content, history: turns.slice(0, -1), documentIds };
    const usageOf = (answer: string) => {
      const promptTokens = countTokens(lastUser);
      const completionTokens = countTokens(answer);
      return { promptTokens, completionTokens };
    };
    const documentMeta = async (reference: MessageReference | null): Promise<Map<string, Json>> => {
      if (!metadata.include || !reference) return new Map();
      const ids = [...new Set(reference.chunks.map((c) => c.document_id))];
      const rows: { id: string; meta_fields: Json | null }[] = ids.length > 0 ? await services.platform.db.query(`SELECT id, meta_fields FROM document WHERE id = ANY($1)`, [ids]) : [];
      return new Map(rows.map((r) => [r.id, r.meta_fields ?? {}]));
    };

    if (!stream) {
      const asked = await services.conversations.askWithHistory(principal, chat.id, asking);
      await asked.finished;
      const outcome = await services.conversations.message({ principal }, asked.answer.id);
      if (outcome.status === "failed") throw new PythonException("Exception", outcome.error ?? "failed");
      const { promptTokens, completionTokens } = usageOf(outcome.content);
      const message: Json = { role: "assistant", content: outcome.content };
      if (wantsReference) message.reference = referenceList(outcome.reference, metadata, await documentMeta(outcome.reference));
      return {
        id,
        object: "chat.completion",
        created,
        model: body.model,
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
          completion_tokens_details: {
            reasoning_tokens: turns.reduce((sum, t) => sum + countTokens(t.content), 0),
            accepted_prediction_tokens: completionTokens,
            rejected_prediction_tokens: 0,
          },
        },
        choices: [{ message, logprobs: null, finish_reason: "stop", index: 0 }],
      };
    }

    const chunk = (delta: Json, finishReason: string | null = null, usage: Json | null = null): Json => ({
      id,
      choices: [{ delta: { content: null, role: "assistant", function_call: null, tool_calls: null, reasoning_content: null, ...delta }, finish_reason: finishReason, index: 0, logprobs: null }],
      created,
      model: "model",
      object: "chat.completion.chunk",
      system_fingerprint: "",
      usage,
    });
    const events = pushedEvents<AnswerEvent>();
    let messageId: string | null = null;
    let clientGone = false;
    async function* frames(): AsyncGenerator<unknown> {
      let raw = "";
      try {
        const asked = await services.conversations.askWithHistory(principal, chat!.id, asking, events.push);
        void asked.finished.then(events.end);
        messageId = asked.answer.id;
        for await (const event of events) {
          if (event.status === "failed") throw new PythonException("Exception", event.error ?? "failed");
          if (event.delta) {
            raw += event.delta;
            yield chunk({ content: event.delta });
          }
        }
        if (clientGone) return; // nobody reads the last chunk
        const outcome = await services.conversations.message({ principal }, asked.answer.id);
        const { promptTokens, completionTokens } = usageOf(raw);
        const last: Json = {};
        if (wantsReference) {
          last.reference = referenceList(outcome.reference, metadata, await documentMeta(outcome.reference));
          last.final_content = outcome.content;
        }
        yield chunk(last, "stop", { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens });
      } catch (error) {
        yield chunk({ content: `**ERROR**: ${error instanceof PythonException ? error.message : messageForClient("openai completions", error)}` });
      }
      yield rawFrame("[DONE]");
    }
    // A client that goes away stops the answer, as the chat page's stop button does; what was written stays.
    const stop = () => {
      clientGone = true;
      if (messageId) void services.conversations.stop({ principal }, messageId).catch(() => undefined);
    };
    await bridgeToSse(res, frames(), { onDisconnect: stop });
    return undefined;
  });
}

export const openAiRestRoutes: RestRoute[] = [openRoute("POST", "/api/v1/chats_openai/:chatId/chat/completions", chatCompletions)];

