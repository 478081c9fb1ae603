import type { ParamSpec } from "../platform/param-spec";

/**
 * Retrieval settings that knowledge bases, assistants and retrieval tests share, as ParamSpecs, so that
 * clients read their limits instead of repeating them (GraphQL `retrievalParams`).
 */

/** RAGFlow's top_k: how many chunks vector similarity is computed for. */
export const TOP_K: ParamSpec = { key: "topK", type: "integer", label: "kb.field.topK", help: "kb.help.topK", min: 1, max: 2048, default: 1024, required: true };

export const RETRIEVAL_PARAMS: readonly ParamSpec[] = [TOP_K];
