import { randomUUID } from "node:crypto";
import { jsonResult, RETURN_CODES } from "../../rest/envelope";
import { PythonException } from "../../rest/python-repr";
import { openRoute, type RestContext, type RestRoute } from "../../rest/rest-route";
import { answering, refuse } from "../../knowledge/rest/scope";
import { authenticateApiKey } from "../../chat/rest/openai.rest";
import { countTokens } from "../../models/tokens";
import { messageForClient } from "../../platform/errors";
import { bridgeToSse, pythonJson, rawFrame } from "../../platform/runs/sse";
import { ownAgent } from "./agents.rest";
import { startAgentTurn } from "./agent-completions.rest";

/**
 * The OpenAI-compatible completions of an agent (API contract §10.6):
 * `POST /api/v1/agents_openai/{agent_id}/chat/completions`. The question is the last user message; the
 * turn runs in the session the body names (`session_id`, else `id`, else `metadata.id`) or a new one, as
 * the native agent completions do. Unlike the chat's OpenAI endpoint, `stream` defaults to false and the
 * stream's frames are prefixed `data: ` (with a space), as RAGFlow writes them. Required fields are checked
 * before authentication.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

const NO_VALID_MESSAGES = "No valid messages found (user or assistant).";

/** RAGFlow's `get_data_openai`, not streamed: a whole `chat.completion`. */
function completion(id: string, model: unknown, content: string, promptTokens: number, completionTokens: number, reference?: Json): Json {
  const message: Json = { role: "assistant", content };
  if (reference && Object.keys(reference).length > 0) message.reference = reference;
  return {
    id,
    object: "chat.completion",
    created: null,
    model,
    param: null,
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      completion_tokens_details: { reasoning_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    },
    choices: [{ message, logprobs: null, finish_reason: "stop", index: 0 }],
  };
}

/** RAGFlow's `get_data_openai(stream=True)`: one `chat.completion.chunk`, written after `data: `. */
function chunk(id: string, agentId: string, content: string, finishReason: string | null = null, reference?: Json) {
  const delta: Json = { content };
  if (reference && Object.keys(reference).length > 0) delta.reference = reference;
  return rawFrame(` ${pythonJson({ id, object: "chat.completion.chunk", model: agentId, choices: [{ delta, finish_reason: finishReason, index: 0 }] })}`);
}

const contentOf = (message: Json): string => (typeof message.content === "string" ? message.content : JSON.stringify(message.content ?? ""));

async function agentCompletions(context: RestContext): Promise<unknown> {
  const { services, params, body, res } = context;
  const missing = ["model", "messages"].filter((key) => !(key in body));
  if (missing.length > 0) return jsonResult(RETURN_CODES.ARGUMENT_ERROR, `required argument are missing: ${missing.join(",")}; `);
  const authenticated = await authenticateApiKey(context);
  if ("refusal" in authenticated) return authenticated.refusal;
  const { principal } = authenticated;

  return answering(async () => {
    const messages = Array.isArray(body.messages) ? (body.messages as unknown[]).filter(isObject) : [];
    if (messages.length === 0) throw refuse("You must provide at least one message.");
    const agent = await ownAgent(services, principal, params.agentId);
    if (!agent) throw refuse(`You don't own the agent ${params.agentId}`);

    const conversation = messages.filter((m) => m.role === "user" || m.role === "assistant");
    const promptTokens = conversation.reduce((sum, m) => sum + countTokens(contentOf(m)), 0);
    if (conversation.length === 0) return completion(agent.id, body.model ?? "", NO_VALID_MESSAGES, promptTokens, countTokens(NO_VALID_MESSAGES));

    const question = contentOf([...messages].reverse().find((m) => m.role === "user") ?? { content: "" });
    const metadata = isObject(body.metadata) ? body.metadata : {};
    const named = body.session_id ?? body.id ?? metadata.id;
    const sessionId = named ? String(named) : undefined;
    // RAGFlow counts only the question here (its `completion_openai`), unlike the no-message answer above.
    const questionTokens = countTokens(question);
    const id = sessionId ?? randomUUID();
    const started = await startAgentTurn(services, principal, agent.id, { question, inputs: {}, sessionId, userId: body.user_id ? String(body.user_id) : undefined });

    if (!(body.stream === true || body.stream === "true")) {
      let content = "";
      const reference: Json = {};
      try {
        for await (const event of started.events) {
          if (event.event === "message") content += String(event.data.content ?? "");
          if ((event.event === "message" || event.event === "message_end") && isObject(event.data.reference)) Object.assign(reference, event.data.reference);
        }
      } catch (error) {
        const failure = `**ERROR**: ${error instanceof PythonException ? error.message : messageForClient("agent openai completions", error)}`;
        return completion(id, agent.id, failure, questionTokens, countTokens(failure));
      }
      return completion(id, agent.id, content, questionTokens, countTokens(content), reference);
    }

    async function* frames(): AsyncGenerator<unknown> {
      try {
        for await (const event of started.events) {
          if (event.event !== "message" && event.event !== "message_end") continue;
          const reference = isObject(event.data.reference) ? event.data.reference : undefined;
          yield chunk(id, agent!.id, event.event === "message" ? String(event.data.content ?? "") : "", null, reference);
        }
      } catch (error) {
        yield chunk(id, agent!.id, `**ERROR**: ${error instanceof PythonException ? error.message : messageForClient("agent openai completions", error)}`, "stop");
      }
      yield rawFrame(" [DONE]");
    }
    await bridgeToSse(res, frames(), { onDisconnect: started.cancel });
    return undefined;
  });
}

export const agentOpenAiRestRoutes: RestRoute[] = [openRoute("POST", "/api/v1/agents_openai/:agentId/chat/completions", agentCompletions)];
