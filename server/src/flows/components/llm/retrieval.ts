import { DomainError } from "../../../platform/errors";
import { localizedMessage } from "../../../platform/messages";
import type { RetrievalHit, RetrievalRequest, RetrievalResult } from "../../../retrieval/retrieval.service";
import type { FlowDsl } from "../../dsl";
import type { ComponentContext, ComponentDefinition, ComponentOutput, OutputItem } from "../../component";
import { DESCRIPTION, INPUT_VARIABLES, topN } from "../../params";
import { inputText } from "./model-call";

/**
 * Retrieval (RAGFlow v0.14 `agent/component/retrieval.py`): hybrid search of the knowledge bases for the
 * text it reads, through the one retrieval service, so that it finds what the testing page and chat find.
 * Its items carry the hits, which a Generate downstream cites. Knowledge bases that do not exist or that the
 * runner may not read are left out with a note (a RAGFlow template names knowledge bases of another server);
 * nothing found gives an empty output that passes `empty_response` on, for Generate to answer with.
 */

const NAME = "Retrieval";
const param = (key: string) => `flow.components.${NAME}.params.${key}`;

/** What a search of the knowledge bases reaches: the runner's retrieval, and the language its notes are told in (the Agent searches too). */
export type KnowledgeReach = Pick<ComponentContext, "ports" | "language">;

const note = (reach: KnowledgeReach, key: string, params: Record<string, unknown> = {}) => localizedMessage(reach.language, `flow.components.${NAME}.notes.${key}`, params);

/** The knowledge base does not exist, or the runner may not read it: it is left out rather than failing the run. */
function unreadable(error: unknown): boolean {
  return error instanceof DomainError && (error.kind === "FORBIDDEN" || error.messageKey === "errors.knowledge.notFound");
}

const MODEL_ERROR = /^errors\.model\./;

/** The rerank model is not one the tenant has, or its vendor failed: the hits are ranked without it. */
function rerankFailed(error: unknown, request: RetrievalRequest): boolean {
  return Boolean(request.rerankModel) && error instanceof DomainError && (MODEL_ERROR.test(error.messageKey) || error.kind === "MODEL_PROVIDER");
}

/**
 * The service refuses a request that names any knowledge base the runner may not read. Only then is each
 * asked alone, with an empty question (the service checks access and searches nothing), to find which.
 */
async function readableIds(reach: KnowledgeReach, ids: string[]): Promise<string[]> {
  const readable: string[] = [];
  for (const id of ids) {
    try {
      await reach.ports.retrieve({ question: "", knowledgeBaseIds: [id] });
      readable.push(id);
    } catch (error) {
      if (!unreadable(error)) throw error;
    }
  }
  return readable;
}

async function retrieve(reach: KnowledgeReach, request: RetrievalRequest, notes: string[]): Promise<RetrievalResult | null> {
  try {
    return await reach.ports.retrieve(request);
  } catch (error) {
    if (rerankFailed(error, request)) {
      notes.push(note(reach, "rerankUnavailable", { model: request.rerankModel }));
      return retrieve(reach, { ...request, rerankModel: null }, notes);
    }
    if (!unreadable(error)) throw error;
    const readable = await readableIds(reach, request.knowledgeBaseIds);
    const skipped = request.knowledgeBaseIds.filter((id) => !readable.includes(id));
    notes.push(note(reach, "skipped", { ids: skipped.join(", ") }));
    return readable.length > 0 ? retrieve(reach, { ...request, knowledgeBaseIds: readable }, notes) : null;
  }
}

/** The knowledge bases a component's params name (a Retrieval's or an Agent's `kb_ids`), each once. */
export function knowledgeBaseIds(params: Record<string, unknown>): string[] {
  return [...new Set((Array.isArray(params.kb_ids) ? params.kb_ids : []).filter((id): id is string => typeof id === "string" && id.trim() !== ""))];
}

/** Every knowledge base a flow's components name: what a run of it looks up while it is claimed (RetrievalService.lookUp). */
export function knowledgeBasesNamedIn(dsl: FlowDsl): string[] {
  return [...new Set(Object.values(dsl.components).flatMap((component) => knowledgeBaseIds(component.obj.params ?? {})))];
}

export interface KnowledgeSearch {
  /** The best hits, in order (none when nothing was found or nothing could be searched). */
  hits: RetrievalHit[];
  total: number;
  /** What was left out and why, translated. */
  notes: string[];
}

/** Searches the knowledge bases a Retrieval's params name for `question`, leaving out those the runner may not read. */
export async function searchKnowledgeBases(reach: KnowledgeReach, params: Record<string, unknown>, question: string): Promise<KnowledgeSearch> {
  const ids = knowledgeBaseIds(params);
  if (ids.length === 0) return { hits: [], total: 0, notes: [note(reach, "noKnowledgeBase")] };
  if (!question.trim()) return { hits: [], total: 0, notes: [] };
  const notes: string[] = [];
  const rerank = typeof params.rerank_id === "string" && params.rerank_id.trim() ? params.rerank_id.trim() : null;
  const result = await retrieve(
    reach,
    {
      question: question.trim(),
      knowledgeBaseIds: ids,
      similarityThreshold: Number(params.similarity_threshold),
      // RAGFlow weighs vectors by 1 − keywords_similarity_weight, as the REST /retrieval facade does.
      vectorSimilarityWeight: 1 - Number(params.keywords_similarity_weight),
      topK: Number(params.top_k),
      rerankModel: rerank,
      page: 1,
      pageSize: Number(params.top_n),
    },
    notes,
  );
  if (!result || result.hits.length === 0) return { hits: [], total: 0, notes: [...notes, note(reach, "nothingFound")] };
  return { hits: result.hits, total: result.total, notes };
}

/** Nothing found: empty content, and the empty response passed on to the Generate that reads it. */
function nothing(context: ComponentContext, notes: string[]): ComponentOutput {
  const emptyResponse = typeof context.params.empty_response === "string" ? context.params.empty_response.trim() : "";
  return { content: "", items: [], values: emptyResponse ? { empty_response: emptyResponse } : {}, notes };
}

export const retrievalComponent: ComponentDefinition = {
  name: NAME,
  category: "knowledge",
  restrictedTargets: ["Begin", "Retrieval"],
  icon: "LuDatabaseZap",
  params: [
    DESCRIPTION,
    { key: "kb_ids", type: "list", label: param("kb_ids"), help: `flow.components.${NAME}.help.kb_ids`, default: [], widget: "knowledgeBases" },
    { key: "similarity_threshold", type: "number", label: param("similarity_threshold"), min: 0, max: 1, step: 0.01, default: 0.2, widget: "slider" },
    { key: "keywords_similarity_weight", type: "number", label: param("keywords_similarity_weight"), min: 0, max: 1, step: 0.01, default: 0.3, widget: "slider" },
    topN(8),
    { key: "top_k", type: "integer", label: param("top_k"), min: 1, max: 2048, default: 1024 },
    { key: "rerank_id", type: "string", label: param("rerank_id"), default: "", widget: "rerankModel" },
    { key: "empty_response", type: "text", label: param("empty_response"), help: `flow.components.${NAME}.help.empty_response`, default: "" },
    INPUT_VARIABLES,
  ],
  // Blocked before it runs rather than finding nothing at every turn; templates ship it empty, for their user to choose.
  checkInFlow: (params) => (Array.isArray(params.kb_ids) && params.kb_ids.some((id) => typeof id === "string" && id.trim() !== "") ? [] : [{ path: "kb_ids", code: "required", messageKey: `flow.components.${NAME}.errors.noKnowledgeBase` }]),
  outputs: [
    { name: "empty_response", label: `flow.components.${NAME}.outputs.empty_response`, type: "text" },
    { name: "total", label: `flow.components.${NAME}.outputs.total`, type: "number" },
  ],
  async run(context) {
    const { hits, total, notes } = await searchKnowledgeBases(context, context.params, inputText(context));
    if (hits.length === 0) return nothing(context, notes);
    const items: OutputItem[] = hits.map((hit) => ({ content: hit.chunk.content, title: hit.documentName, hit }));
    return { content: items.map((item) => item.content).join("\n\n"), items, values: { total }, notes };
  },
};
