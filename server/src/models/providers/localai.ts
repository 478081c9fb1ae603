import { openAiCompatibleProvider, selfHostedVendor } from "./openai-compatible";

/** LocalAI: the OpenAI protocol with rerank (/v1/rerank), whisper transcription and text to speech. */
export const localAi = openAiCompatibleProvider(selfHostedVendor("LocalAI", ["chat", "embedding", "rerank", "img2txt", "sequence2txt", "tts"]));
