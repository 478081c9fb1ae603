import { success } from "../rest/envelope";
import { PythonException, pythonStringRepr } from "../rest/python-repr";
import { authenticatedRoute, openRoute, type AuthenticatedRestContext, type RestContext, type RestRoute } from "../rest/rest-route";
import type { KnowledgeBase } from "../knowledge/knowledge-base.entity";
import { presentChunk } from "../knowledge/rest/presenters";
import { answering, documentIn, pythonInt, pythonTruthy, pythonTypeName, refuse, usableDataset } from "../knowledge/rest/scope";
import { tokenize } from "../models/builtin/text-analysis";
import type { Services } from "../platform/services";
import { messageForClient } from "../platform/errors";
import { parseMetadataCondition } from "../knowledge/metadata-condition";
import { crossLanguagesOf, translateForRetrieval } from "./cross-languages";
import { RETRIEVAL_DEFAULTS } from "../knowledge/knowledge-base.service";
import type { RetrievalHit } from "./retrieval.service";

/**
 * RAGFlow's retrieval endpoints (contract §5.1 and §5.4): they read and check the request as RAGFlow does,
 * then call RetrievalService.retrieve, which alone decides what is found and how it scores.
 */

/** Python's str() of a JSON value, as RAGFlow's f-strings print it. */
function pythonStr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** Python's int() of a body value: numbers truncate, booleans count, strings must be integers. */
function pythonIntOf(value: unknown): number {
  if (typeof value === "number" && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string") return pythonInt(value, 0);
  throw new PythonException("TypeError", `int() argument must be a string, a bytes-like object or a real number, not '${pythonTypeName(value)}'`);
}

const FLOAT = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/** Python's float() of a body value. */
function pythonFloatOf(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string") {
    if (FLOAT.test(value)) return Number(value);
    throw new PythonException("ValueError", `could not convert string to float: ${pythonStringRepr(value)}`);
  }
  throw new PythonException("TypeError", `float() argument must be a string or a real number, not '${pythonTypeName(value)}'`);
}

/** `req.get(key, fallback)`: a key that is present keeps its value, even null. */
const field = (body: Record<string, unknown>, key: string, fallback: unknown) => (key in body ? body[key] : fallback);

/** `highlight`: a boolean, or "true"/"false" in any case (the Python SDK sends "True"/"False"). */
function highlightOf(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "boolean") return value;
  if (typeof value === "string" && ["true", "false"].includes(value.toLowerCase())) return value.toLowerCase() === "true";
  throw refuse("`highlight` should be a boolean");
}

/** RAGFlow's ES engine refuses a kNN search of no candidates; its message reaches the client as code 100. */
function checkTopK(topK: number): void {
  if (topK < 1) throw new PythonException("BadRequestError", `[k] must be greater than 0, got ${topK}`);
}

/**
 * A rerank model as RAGFlow names it: a Cairn id (`name@Provider`), or a bare model name as RAGFlow's
 * clients send it (`BAAI/bge-reranker-v2-m3`), taken as the first of the tenant's rerank models of that name.
 */
async function rerankModelOf(services: Services, tenantId: string, requested: unknown): Promise<string | null> {
  if (!requested) return null;
  const name = pythonStr(requested);
  const available = await services.models.availableModels(tenantId, "rerank");
  const found = available.find((m) => m.id === name) ?? available.find((m) => m.modelName === name);
  if (!found) throw new PythonException("LookupError", `Model(${name}) not authorized`);
  return found.id;
}

/** RAGFlow's retrieval chunk (contract §5.1); `highlight` only when it was asked for. */
function presentHit(hit: RetrievalHit, withHighlight: boolean): Record<string, unknown> {
  const { id, content, document_id, dataset_id, important_keywords, image_id, positions } = presentChunk(hit.chunk, hit.documentName);
  return {
    id,
    content,
    content_ltks: tokenize(hit.chunk.content, { keepStopWords: true })
      .map((t) => t.term)
      .join(" "),
    document_id,
    document_keyword: hit.documentName,
    dataset_id,
    important_keywords,
    image_id,
    positions,
    similarity: hit.similarity,
    vector_similarity: hit.vectorSimilarity,
    term_similarity: hit.termSimilarity,
    doc_type_kwd: hit.chunk.imageKey ? "image" : "",
    mom_id: "",
    ...(withHighlight ? { highlight: hit.highlight ?? content } : {}),
  };
}

/** An empty question (or a metadata condition no document meets) is answered with `doc_aggs` as an object, as RAGFlow does. */
const NOTHING = () => success({ total: 0, chunks: [], doc_aggs: {} });

const clamp01 = (value: number) => Math.min(1, Math.max(0, value));

async function retrieval({ services, principal, body }: AuthenticatedRestContext): Promise<unknown> {
  const datasetIds = body.dataset_ids;
  if (!pythonTruthy(datasetIds)) throw refuse("`dataset_ids` is required.");
  if (!Array.isArray(datasetIds)) throw refuse("`dataset_ids` should be a list");
  const kbs: KnowledgeBase[] = [];
  for (const id of datasetIds) {
    const kb = typeof id === "string" ? await usableDataset(services, principal, id, "use") : null;
    if (!kb) throw refuse(`You don't own the dataset ${pythonStr(id)}.`);
    kbs.push(kb);
  }
  // RAGFlow refuses datasets with different embedding models here (§5.1 order 4, "Datasets use different
  // embedding models."). Cairn deliberately does not: the service searches each model's knowledge bases with
  // that model's own query vector, so a mixed selection is answered instead of refused.
  if (!("question" in body)) throw refuse("`question` is required.");
  let page = pythonIntOf(field(body, "page", RETRIEVAL_DEFAULTS.page));
  let pageSize = pythonIntOf(field(body, "page_size", RETRIEVAL_DEFAULTS.pageSize));
  const question = typeof body.question === "string" ? body.question : body.question === null ? "" : pythonStr(body.question);

  const requestedDocuments = field(body, "document_ids", []);
  if (!Array.isArray(requestedDocuments)) throw refuse("`documents` should be a list");
  for (const id of requestedDocuments) {
    const owned = typeof id === "string" && (await Promise.all(kbs.map((kb) => documentIn(services, principal, kb.id, id)))).some(Boolean);
    if (!owned) throw refuse(`The datasets don't own the document ${pythonStr(id)}`);
  }
  let documentIds = requestedDocuments as string[];
  if (documentIds.length === 0) {
    // §5.1: the metadata condition narrows the documents only when none are named.
    const condition = parseMetadataCondition(body.metadata_condition);
    if (condition) {
      documentIds = await services.documents.meetingCondition(kbs.map((kb) => kb.id), condition);
      if (documentIds.length === 0) return NOTHING();
    }
  }
  const similarityThreshold = pythonFloatOf(field(body, "similarity_threshold", RETRIEVAL_DEFAULTS.similarityThreshold));
  const vectorSimilarityWeight = pythonFloatOf(field(body, "vector_similarity_weight", RETRIEVAL_DEFAULTS.vectorSimilarityWeight));
  const topK = pythonIntOf(field(body, "top_k", RETRIEVAL_DEFAULTS.topK));
  const highlight = highlightOf(body.highlight);
  // `keyword`, `use_kg` and `toc_enhance` are accepted and not acted on (each needs a chat model).

  const rerankModel = await rerankModelOf(services, kbs[0].tenantId, body.rerank_id);
  if (!question.trim()) return NOTHING();
  checkTopK(topK);
  // RAGFlow divides by page_size to size its candidate window (§5.1 paging).
  if (pageSize === 0) throw new PythonException("ZeroDivisionError", "division by zero");
  page = Math.max(1, page);
  pageSize = Math.max(1, pageSize);

  const languages = crossLanguagesOf(body.cross_languages);
  const result = await services.retrieval.retrieveFrom(kbs, {
    question: languages.length > 0 ? (await translateForRetrieval(services.models, kbs[0].tenantId, question, languages)).question : question,
    documentIds,
    // RAGFlow takes any float (its suite sends a weight of 10); similarities lie in 0..1, so clamping keeps the meaning.
    similarityThreshold: clamp01(similarityThreshold),
    vectorSimilarityWeight: clamp01(vectorSimilarityWeight),
    rerankModel,
    topK,
    page,
    pageSize,
    highlight,
  });
  return success({
    total: result.total,
    chunks: result.hits.map((hit) => presentHit(hit, highlight)),
    doc_aggs: result.documents.map((d) => ({ doc_name: d.documentName, doc_id: d.documentId, count: d.count })),
  });
}

/** `build_error_result`: the code is also the HTTP status (contract §1.3). */
function difyError({ res }: RestContext, code: number, message: string): Record<string, unknown> {
  res.status(code);
  return { code, message };
}

/**
 * Dify's external knowledge API (contract §5.4): its own key check (HTTP 403), no envelope on success, and
 * every failure as HTTP status = code. The knowledge base must be one the key's tenant may use.
 */
async function difyRetrieval(context: RestContext): Promise<unknown> {
  const { services, req, body } = context;
  const token = (req.headers.authorization ?? "").trim().split(/\s+/)[1];
  const principal = token ? await services.apiTokens.authenticate(token) : null;
  if (!principal) return difyError(context, 403, "API-KEY is invalid!");
  const missing = ["knowledge_id", "query"].filter((key) => !(key in body));
  if (missing.length) return { code: 101, message: `required argument are missing: ${missing.join(",")}; `, data: null };
  try {
    const setting = typeof body.retrieval_setting === "object" && body.retrieval_setting !== null ? (body.retrieval_setting as Record<string, unknown>) : {};
    const threshold = pythonFloatOf(field(setting, "score_threshold", 0));
    const topK = pythonIntOf(field(setting, "top_k", RETRIEVAL_DEFAULTS.topK));
    const kb = typeof body.knowledge_id === "string" ? await usableDataset(services, principal, body.knowledge_id, "use") : null;
    if (!kb) return difyError(context, 404, "Knowledgebase not found!");
    let documentIds: string[] | undefined;
    const condition = parseMetadataCondition(body.metadata_condition);
    if (condition) {
      documentIds = await services.documents.meetingCondition([kb.id], condition);
      if (documentIds.length === 0) return { records: [] };
    }
    const question = typeof body.query === "string" ? body.query : pythonStr(body.query);
    if (!question.trim()) return { records: [] };
    checkTopK(topK);
    const result = await services.retrieval.retrieve(principal, {
      question,
      knowledgeBaseIds: [kb.id],
      documentIds,
      similarityThreshold: clamp01(threshold),
      vectorSimilarityWeight: 0.3,
      topK,
      page: 1,
      pageSize: topK,
    });
    const metas = new Map<string, Record<string, unknown>>();
    for (const id of new Set(result.hits.map((h) => h.chunk.documentId))) {
      const document = await documentIn(services, principal, kb.id, id);
      metas.set(id, document?.metaFields ?? {});
    }
    return {
      records: result.hits.map((hit) => ({
        content: hit.chunk.content,
        score: hit.similarity,
        title: hit.documentName,
        metadata: { ...metas.get(hit.chunk.documentId), doc_id: hit.chunk.documentId },
      })),
    };
  } catch (error) {
    return difyError(context, 500, error instanceof PythonException ? error.message : messageForClient("rest dify retrieval", error));
  }
}

export const retrievalRestRoutes: RestRoute[] = [
  authenticatedRoute("POST", "/api/v1/retrieval", "apiKey", (context) => answering(() => retrieval(context))),
  openRoute("POST", "/api/v1/dify/retrieval", difyRetrieval),
];
