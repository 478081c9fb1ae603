import type { SignedIn } from "../policies/principal";
import { cleanModelAnswer, distinctItems, isBuiltinChat } from "../ingestion/enrichment/context";
import { topKeyPhrases } from "../ingestion/enrichment/key-phrases";
import type { KnowledgeBaseService } from "../knowledge/knowledge-base.service";
import { queryTerms } from "../knowledge/search-terms";
import { lexicalScorer } from "../models/builtin/lexical-rerank";
import { completeChat } from "../models/model-types";
import type { ModelsService } from "../models/models.service";
import type { RetrievalService } from "../retrieval/retrieval.service";

/**
 * Search terms related to a user's keywords (RAGFlow's `/sessions/related_questions`, contract §11).
 *
 * With a language model as the tenant's chat model: RAGFlow's prompt, and the model's numbered lines.
 * The built-in chat model is extractive and cannot write new terms, so the terms come from the tenant's
 * own knowledge instead (every knowledge base the user can read, or those the search page searched): the chunks
 * that best match the keywords give their keywords, their questions (written by a person or a language model),
 * and their key phrases. Nothing matching gives an empty list.
 */

export interface RelatedQuestionsDeps {
  models: ModelsService;
  knowledgeBases: KnowledgeBaseService;
  retrieval: RetrievalService;
}

/** RAGFlow asks for 5–10 terms; its built-in answer offers no more. */
const MAX_TERMS = 10;
/** How many matching chunks the built-in answer draws terms from. */
const SOURCE_CHUNKS = 8;
const PHRASES_PER_CHUNK = 3;

/** RAGFlow's prompt (api/apps/sdk/session.py), verbatim: models answer it in the numbered form parsed below. */
function relatedQuestionsPrompt(industry: string): string {
  let prompt = `
Objective: To generate search terms related to the user's search keywords, helping users find more valuable information.
Instructions:
 - Based on the keywords provided by the user, generate 5-10 related search terms.
 - Each search term should be directly or indirectly related to the keyword, guiding the user to find more valuable information.
 - Use common, general terms as much as possible, avoiding obscure words or technical jargon.
 - Keep the term length between 2-4 words, concise and clear.
 - DO NOT translate, use the language of the original keywords.
`;
  if (industry) prompt += ` - Ensure all search terms are relevant to the industry: ${industry}.\n`;
  return (
    prompt +
    `
### Example:
Keywords: Chinese football
Related search terms:
1. Current status of Chinese football
2. Reform of Chinese football
3. Youth training of Chinese football
4. Chinese football in the Asian Cup
5. Chinese football in the World Cup

Reason:
 - When searching, users often only use one or two keywords, making it difficult to fully express their information needs.
 - Generating related search terms can help users dig deeper into relevant information and improve search efficiency.
 - At the same time, related terms can also help search engines better understand user needs and return more accurate search results.

`
  );
}

/** The model's lines of the form "1. term", without their numbers (RAGFlow keeps only one-digit numbers). */
export function numberedLines(answer: string): string[] {
  return answer
    .split("\n")
    .filter((line) => /^[0-9]\. /.test(line))
    .map((line) => line.replace(/^[0-9]\. /, ""));
}

async function fromLanguageModel(deps: RelatedQuestionsDeps, principal: SignedIn, modelId: string, question: string, industry: string): Promise<string[]> {
  const model = await deps.models.client(principal.tenantId, "chat", modelId);
  const { text } = await completeChat(
    model,
    [
      { role: "system", content: relatedQuestionsPrompt(industry) },
      { role: "user", content: `\nKeywords: ${question}\nRelated search terms:\n    ` },
    ],
    { temperature: 0.9 },
  );
  return numberedLines(cleanModelAnswer(text));
}

async function fromKnowledge(deps: RelatedQuestionsDeps, principal: SignedIn, question: string, knowledgeBaseIds?: string[]): Promise<string[]> {
  const { items } = await deps.knowledgeBases.list(principal, { pageSize: Number.MAX_SAFE_INTEGER });
  const searched = items.filter((kb) => kb.chunkCount > 0 && (!knowledgeBaseIds || knowledgeBaseIds.includes(kb.id))).map((kb) => kb.id);
  if (searched.length === 0) return [];
  const { hits } = await deps.retrieval.retrieve(principal, { question, knowledgeBaseIds: searched, page: 1, pageSize: SOURCE_CHUNKS });
  const asked = new Set(queryTerms(question));
  const isNew = (term: string) => {
    const terms = queryTerms(term);
    return terms.length > 0 && !terms.every((t) => asked.has(t));
  };
  const scorer = await lexicalScorer();
  const candidates: string[] = [];
  for (const { chunk } of hits) {
    // The built-in model's questions are templates ("What does the text say about …?"), not search terms.
    const questions = isBuiltinChat(chunk.producedBy.questions ?? "") ? [] : chunk.questions;
    candidates.push(...chunk.keywords, ...questions, ...topKeyPhrases(chunk.content, PHRASES_PER_CHUNK, scorer).map((p) => p.text));
  }
  return distinctItems(
    candidates.map((c) => c.trim()).filter(isNew),
    MAX_TERMS,
  );
}

/**
 * Related search terms for the keywords, in the keywords' language where the source allows it. `knowledgeBaseIds`
 * narrows the built-in answer's sources to the knowledge bases searched.
 */
export async function relatedQuestions(deps: RelatedQuestionsDeps, principal: SignedIn, question: string, industry = "", knowledgeBaseIds?: string[]): Promise<string[]> {
  const modelId = (await deps.models.defaults(principal.tenantId)).chat;
  return isBuiltinChat(modelId) ? fromKnowledge(deps, principal, question, knowledgeBaseIds) : fromLanguageModel(deps, principal, modelId, question, industry);
}
