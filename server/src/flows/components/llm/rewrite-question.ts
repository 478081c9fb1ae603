import { refineQuestion, rewriteQuestion } from "../../../chat/answer/question";
import type { ComponentDefinition } from "../../component";
import { DESCRIPTION, modelParams } from "../../params";
import { askModel, chatModelOf, componentError, generationOptions } from "./model-call";

/**
 * RewriteQuestion (RAGFlow v0.14 `agent/component/rewrite.py`): when retrieval found nothing relevant, a chat
 * model rewrites the user's latest question from the last messages of the conversation so that a second
 * retrieval finds more, and the rewritten question takes its place in the history. Its `loop` bounds how
 * often it may run in one turn; past it the run stops with RAGFlow's "Sorry! Nothing relevant found.". The
 * built-in extractive model cannot rewrite, so for it a follow-up is completed from the turn before and
 * reduced to its key terms, as chat's multi-turn optimisation and self-RAG do for it.
 */

const NAME = "RewriteQuestion";
const text = (key: string) => `flow.components.${NAME}.${key}`;

/** RAGFlow reads the last four messages. */
const CONVERSATION_MESSAGES = 4;

function rewritePrompt(conversation: string): string {
  return `You are an expert at query expansion. Retrieval from the knowledge base found nothing relevant for the user's latest question as it is asked.
Rewrite the user's latest question into one complete, stand-alone question that a search of a knowledge base answers better: resolve what it refers to in the conversation, write abbreviations in full, use synonyms of its key words, add the missing context.
Keep the language of the question. Output only the rewritten question, no other words.

## Conversation
${conversation}`;
}

export const rewriteQuestionComponent: ComponentDefinition = {
  name: NAME,
  category: "core",
  restrictedTargets: ["Begin"],
  icon: "LuPencilLine",
  params: [DESCRIPTION, ...modelParams({ temperature: 0.9 }), { key: "loop", type: "integer", label: text("params.loop"), help: text("help.loop"), min: 1, max: 100, default: 1 }],
  async run(context) {
    const loop = typeof context.params.loop === "number" ? context.params.loop : 1;
    if (context.loopCount > loop) throw componentError("BAD_REQUEST", NAME, "nothingRelevant", { loop });
    const recent = context.history.slice(-CONVERSATION_MESSAGES);
    const model = await chatModelOf(context);
    let question: string;
    if (model.extractive) {
      const builtin = { model, builtin: true, signal: context.signal };
      question = await rewriteQuestion(builtin, (await refineQuestion(builtin, recent)).question || context.question);
    } else {
      const conversation = recent.map((m) => `${m.role.toUpperCase()}: ${m.content}`).join("\n");
      const answer = await askModel(context, model, [{ role: "system", content: rewritePrompt(conversation) }, { role: "user", content: "Output: " }], generationOptions(context.params, context.signal));
      question = answer.replace(/^\s*(question|output)\s*[:：]\s*/i, "").trim() || context.question;
    }
    context.replaceQuestion(question);
    return { content: question };
  },
};
