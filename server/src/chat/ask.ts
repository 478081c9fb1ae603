import type { KnowledgeBase } from "../knowledge/knowledge-base.entity";
import { generateAnswer, type AnswerOutcome, type AnswerServices, type AnswerSink } from "./answer/pipeline";
import { ChatAssistant } from "./assistant.entity";
import { DEFAULT_LLM_SETTING, DEFAULT_SWITCHES, DEFAULT_VARIABLES, KNOWLEDGE_VARIABLE, newAssistantColumns } from "./prompt-defaults";

/**
 * A question asked of knowledge bases without an assistant (RAGFlow's `ask`, behind `/sessions/ask` and its
 * search page, and Cairn's): one turn, answered by the tenant's default chat model with RAGFlow's ask prompt, from
 * the twelve best chunks at similarity 0.1 (of the given documents only, when some are given), with citations.
 */

/** RAGFlow's ask prompt (rag/prompts/ask_summary.md), with Cairn's knowledge slot. */
const ASK_PROMPT = `Role: You're a smart assistant. Your name is Miss R.
Task: Summarize the information from knowledge bases and answer user's question.
Requirements and restriction:
  - DO NOT make things up, especially for numbers.
  - If the information from knowledge is irrelevant with user's question, JUST SAY: Sorry, no relevant information provided.
  - Answer with markdown format text.
  - Answer in language of user's question.
  - DO NOT make things up, especially for numbers.

### Information from knowledge bases

{${KNOWLEDGE_VARIABLE}}

The above is information from knowledge bases.`;

/** The settings RAGFlow's ask uses, as an assistant that is never stored; its chat model is the tenant's default. */
function askingAssistant(tenantId: string, knowledgeBases: KnowledgeBase[]): ChatAssistant {
  const now = new Date();
  return Object.assign(new ChatAssistant(), {
    ...newAssistantColumns(),
    id: "",
    tenantId,
    createdBy: tenantId,
    name: "",
    kbIds: knowledgeBases.map((kb) => kb.id),
    llmId: "",
    llmSetting: { ...DEFAULT_LLM_SETTING },
    promptConfig: { system: ASK_PROMPT, prologue: "", parameters: [...DEFAULT_VARIABLES], empty_response: "", ...DEFAULT_SWITCHES, refine_multiturn: false },
    similarityThreshold: 0.1,
    vectorSimilarityWeight: 0.3,
    topN: 12,
    topK: 1024,
    status: "1",
    createdAt: now,
    updatedAt: now,
  });
}

export function askKnowledgeBases(
  services: AnswerServices,
  tenantId: string,
  knowledgeBases: KnowledgeBase[],
  question: string,
  sink: AnswerSink,
  signal: AbortSignal,
  documentIds?: string[],
): Promise<AnswerOutcome> {
  return generateAnswer(services, { assistant: askingAssistant(tenantId, knowledgeBases), knowledgeBases, turns: [{ role: "user", content: question }], variables: {}, documentIds, quote: true, signal }, sink);
}
