import { apiKeyAndBaseUrl } from "../provider";
import { openAiCompatibleProvider } from "./openai-compatible";
import { catalogueOf } from "./shared";

// The models trained with task adapters; older ones refuse the `task` field.
const TASK_MODELS = /^jina-embeddings-v[34]/;

/** Jina AI's embeddings (OpenAI-shaped, with task adapters for queries and passages) and its /v1/rerank. */
export const jina = openAiCompatibleProvider({
  name: "Jina",
  modelTypes: ["embedding", "rerank"],
  credentialFields: apiKeyAndBaseUrl("https://api.jina.ai/v1"),
  defaultBaseUrl: "https://api.jina.ai/v1",
  catalogue: [
    ...catalogueOf("embedding", [
      ["jina-embeddings-v3", 8194],
      ["jina-embeddings-v4", 32768],
      ["jina-embeddings-v2-base-en", 8192],
      ["jina-embeddings-v2-base-zh", 8192],
      ["jina-clip-v2", 8192],
    ]),
    ...catalogueOf("rerank", [["jina-reranker-v2-base-multilingual", 8194], ["jina-reranker-m0", 10240], ["jina-reranker-v1-base-en", 8192], ["jina-colbert-v2", 8192]]),
  ],
  quirks: {
    embeddingBody(body, model, purpose) {
      if (!TASK_MODELS.test(model) || !purpose) return body;
      return { ...body, task: purpose === "query" ? "retrieval.query" : "retrieval.passage" };
    },
    embeddingBatchSize: 128,
  },
});
