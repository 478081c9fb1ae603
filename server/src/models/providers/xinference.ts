import { openAiCompatibleProvider, selfHostedVendor } from "./openai-compatible";

/**
 * Xorbits Inference: every model type through its OpenAI-compatible /v1 API, rerank included. Its
 * /v1/audio/speech answers application/octet-stream, not audio/*.
 */
export const xinference = openAiCompatibleProvider(
  selfHostedVendor("Xinference", ["chat", "embedding", "rerank", "img2txt", "sequence2txt", "tts"], { speechAsOctetStream: true }),
);
