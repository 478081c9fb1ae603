import type { RestContext, RestRoute } from "../../rest/rest-route";
import { DomainError } from "../../platform/errors";
import { spokenText, ttsModelOf } from "../speech";

/**
 * Reading an answer aloud (issue 6, TTS): `POST /v1/chat/tts` with `{messageId}`, for a member of the
 * assistant's tenant or its share page (with its X-Visitor-Id). The audio of the tenant's TTS model is
 * streamed as it comes, with the model's content type; without a TTS model, HTTP 400 with the message.
 */

async function tts({ services, principal, req, res, body }: RestContext): Promise<unknown> {
  if (principal.kind === "anonymous" || principal.kind === "flowShare") return undefined;
  const visitor = req.headers["x-visitor-id"];
  const actor = { principal, visitorId: typeof visitor === "string" ? visitor : null };
  const refuse = (error: DomainError) => {
    res.status(error.kind === "NOT_FOUND" ? 404 : 400).json({ code: error.httpStatus, message: error.message, messageKey: error.messageKey, data: null });
    return undefined;
  };
  try {
    const message = await services.conversations.message(actor, String(body.messageId ?? body.message_id ?? ""));
    const text = spokenText(message.content);
    if (message.role !== "assistant" || text === "") return refuse(new DomainError("BAD_REQUEST", "errors.conversation.ttsNothingToRead"));
    const ttsModel = await ttsModelOf(services.models, principal.tenantId);
    if (!ttsModel) return refuse(new DomainError("BAD_REQUEST", "errors.conversation.ttsNotSet"));
    const model = await services.models.client(principal.tenantId, "tts", ttsModel);
    const controller = new AbortController();
    res.on("close", () => controller.abort());
    const speech = await model.synthesize(text, { signal: controller.signal });
    res.status(200).setHeader("Content-Type", speech.mimeType);
    res.setHeader("Cache-Control", "no-cache");
    for await (const chunk of speech.audio) {
      if (!res.write(chunk)) await new Promise((resolve) => res.once("drain", resolve));
    }
    res.end();
    return undefined;
  } catch (error) {
    if (error instanceof DomainError && !res.headersSent) return refuse(error);
    throw error;
  }
}

export const ttsRestRoutes: RestRoute[] = [{ method: "POST", path: "/v1/chat/tts", auth: "loginOrShare", handle: tts }];
