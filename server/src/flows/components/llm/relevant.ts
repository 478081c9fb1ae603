import { localizedMessage } from "../../../platform/messages";
import type { ComponentContext, ComponentDefinition, ComponentOutput, RoutePort } from "../../component";
import { DESCRIPTION, modelParams } from "../../params";
import { termShare } from "./lexical";
import { askModel, chatModelOf, generationOptions, inputText } from "./model-call";
import { unknownRouteTargets } from "./route-targets";

/**
 * Relevant (RAGFlow v0.14 `agent/component/relevant.py`): a chat model grades whether the documents it reads
 * (usually a Retrieval's output) bear on the user's latest question, and the run goes on to `yes` or `no`.
 * Nothing to read is "no" without a model call. The built-in extractive model cannot grade, so for it the
 * documents are relevant when they hold half of the question's terms (chat's self-RAG judge does the same).
 */

const NAME = "Relevant";
const text = (key: string) => `flow.components.${NAME}.${key}`;

/** Share of the question's terms the documents must hold to be relevant, for the built-in model. */
const LEXICAL_RELEVANCE = 0.5;

/** RAGFlow's grader prompt. */
const GRADER_PROMPT = `You are a grader assessing relevance of a retrieved document to a user question.
It does not need to be a stringent test. The goal is to filter out erroneous retrievals.
If the document contains keyword(s) or semantic meaning related to the user question, grade it as relevant.
Give a binary score 'yes' or 'no' score to indicate whether the document is relevant to the question.
No other words needed except 'yes' or 'no'.`;

function routes(params: Record<string, unknown>): RoutePort[] {
  const target = (key: string) => (typeof params[key] === "string" && params[key] ? (params[key] as string) : null);
  return [
    { handle: "yes", target: target("yes"), label: text("routes.yes") },
    { handle: "no", target: target("no"), label: text("routes.no") },
  ];
}

function decided(context: ComponentContext, answer: "yes" | "no", notes?: string[]): ComponentOutput {
  const target = routes(context.params).find((route) => route.handle === answer)?.target;
  return { content: answer, next: target ? [target] : [], ...(notes ? { notes } : {}) };
}

export const relevantComponent: ComponentDefinition = {
  name: NAME,
  category: "core",
  restrictedTargets: ["Begin"],
  icon: "LuScale",
  params: [
    DESCRIPTION,
    ...modelParams(),
    { key: "yes", type: "string", label: text("params.yes"), default: "", widget: "flowComponent" },
    { key: "no", type: "string", label: text("params.no"), default: "", widget: "flowComponent" },
  ],
  routes,
  connect: (params, handle, target) => (handle === "yes" || handle === "no" ? { ...params, [handle]: target ?? "" } : params),
  checkInFlow: (params, flow) => unknownRouteTargets(routes(params), flow, (route) => route.handle),
  async run(context) {
    const documents = inputText(context).trim();
    if (!documents) return decided(context, "no");
    const question = context.question;
    const model = await chatModelOf(context);
    if (model.extractive) return decided(context, termShare(question, documents) >= LEXICAL_RELEVANCE ? "yes" : "no");
    const answer = await askModel(
      context,
      model,
      [{ role: "system", content: GRADER_PROMPT }, { role: "user", content: `Question: ${question}\nDocuments: \n${documents}` }],
      generationOptions(context.params, context.signal),
    );
    if (/\byes\b/i.test(answer)) return decided(context, "yes");
    if (/\bno\b/i.test(answer)) return decided(context, "no");
    // RAGFlow stops the run on an answer that is neither; going on by "no" keeps the conversation alive.
    return decided(context, "no", [localizedMessage(context.language, text("notes.unclearAnswer"), { answer: answer.slice(0, 200) })]);
  },
};
