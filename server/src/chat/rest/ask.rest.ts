import { authenticatedRoute, type AuthenticatedRestContext, type RestRoute } from "../../rest/rest-route";
import type { KnowledgeBase } from "../../knowledge/knowledge-base.entity";
import { answering, pythonTruthy, refuse, usableDataset } from "../../knowledge/rest/scope";
import { messageForClient } from "../../platform/errors";
import { askKnowledgeBases } from "../ask";
import { presentReference } from "./sessions.rest";
import { pushedEvents } from "../../platform/runs/pushed-events";
import { bridgeToSse } from "../../platform/runs/sse";

/**
 * `POST /api/v1/sessions/ask` (contract §11): a question over datasets without an assistant, streamed as
 * RAGFlow streams it — the answer's pieces, then a final frame with the reference, then `data: true`.
 */
async function ask({ services, principal, body, res }: AuthenticatedRestContext): Promise<unknown> {
  if (!pythonTruthy(body.question)) throw refuse("`question` is required.");
  if (!pythonTruthy(body.dataset_ids)) throw refuse("`dataset_ids` is required.");
  if (!Array.isArray(body.dataset_ids)) throw refuse("`dataset_ids` should be a list.");
  const knowledgeBases: KnowledgeBase[] = [];
  for (const id of body.dataset_ids.map(String)) {
    const kb = await usableDataset(services, principal, id, "use");
    if (!kb) throw refuse(`You don't own the dataset ${id}.`);
    if (kb.chunkCount === 0) throw refuse(`The dataset ${id} doesn't own parsed file`);
    knowledgeBases.push(kb);
  }
  const controller = new AbortController();
  const frames = pushedEvents<unknown>();
  const answered = (async () => {
    try {
      const outcome = await askKnowledgeBases(services, principal.tenantId, knowledgeBases, String(body.question), {
        reference: () => undefined,
        delta: (text) => frames.push({ code: 0, message: "", data: { answer: text, reference: {}, final: false } }),
      }, controller.signal);
      frames.push({ code: 0, message: "", data: { answer: "", reference: presentReference(outcome.reference), final: true } });
    } catch (error) {
      const message = messageForClient("rest sessions ask", error);
      frames.push({ code: 500, message, data: { answer: `**ERROR**: ${message}`, reference: [] } });
    }
    frames.push({ code: 0, message: "", data: true });
    frames.end();
  })();
  await bridgeToSse(res, frames, { onDisconnect: () => controller.abort() });
  await answered;
  return undefined;
}

export const askRestRoutes: RestRoute[] = [authenticatedRoute("POST", "/api/v1/sessions/ask", "apiKey", (context) => answering(() => ask(context)))];
