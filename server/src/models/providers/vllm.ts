import { openAiCompatibleProvider, selfHostedVendor } from "./openai-compatible";

/** A vLLM server: chat, embeddings, vision and, for cross-encoder models, /v1/rerank. */
export const vllm = openAiCompatibleProvider(selfHostedVendor("VLLM", ["chat", "embedding", "rerank", "img2txt"]));
