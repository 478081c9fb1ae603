import { success } from "../../rest/envelope";
import { authenticatedRoute, type RestRoute } from "../../rest/rest-route";
import { answering, pythonTruthy, refuse } from "../../knowledge/rest/scope";
import { relatedQuestions } from "../related-questions";

/** `POST /api/v1/sessions/related_questions` (contract §11): search terms related to `question`. */
export const relatedQuestionRestRoutes: RestRoute[] = [
  authenticatedRoute("POST", "/api/v1/sessions/related_questions", "apiKey", ({ services, principal, body }) =>
    answering(async () => {
      if (!pythonTruthy(body.question)) throw refuse("`question` is required.");
      const industry = pythonTruthy(body.industry) ? String(body.industry) : "";
      return success(await relatedQuestions(services, principal, String(body.question), industry));
    }),
  ),
];
