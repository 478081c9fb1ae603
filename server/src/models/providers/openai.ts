import { apiKeyAndBaseUrl } from "../provider";
import { openAiCompatibleProvider } from "./openai-compatible";
import { catalogueOf } from "./shared";

// Reasoning models refuse sampling parameters other than their defaults.
const REASONING_MODEL = /^(o\d|gpt-5)/;

export const openAi = openAiCompatibleProvider({
  name: "OpenAI",
  modelTypes: ["chat", "embedding", "img2txt", "sequence2txt", "tts"],
  credentialFields: apiKeyAndBaseUrl("https://api.openai.com/v1"),
  defaultBaseUrl: "https://api.openai.com/v1",
  catalogue: [
    ...catalogueOf("chat", [["gpt-5", 400000], ["gpt-5-mini", 400000], ["gpt-4.1", 1047576], ["gpt-4.1-mini", 1047576], ["o4-mini", 200000], ["o3-mini", 200000]]),
    ...catalogueOf("chat", [["gpt-4o", 128000], ["gpt-4o-mini", 128000]], { vision: true }),
    ...catalogueOf("embedding", [["text-embedding-3-small", 8191], ["text-embedding-3-large", 8191], ["text-embedding-ada-002", 8191]]),
    ...catalogueOf("img2txt", [["gpt-4o", 128000], ["gpt-4o-mini", 128000], ["gpt-4.1", 1047576], ["gpt-4.1-mini", 1047576]], { vision: true }),
    ...catalogueOf("sequence2txt", ["whisper-1", "gpt-4o-transcribe", "gpt-4o-mini-transcribe"]),
    ...catalogueOf("tts", ["tts-1", "tts-1-hd", "gpt-4o-mini-tts"]),
  ],
  quirks: {
    // OpenAI renamed max_tokens for every model, and its reasoning models accept only the new name.
    chatBody({ max_tokens, ...body }, model) {
      if (max_tokens !== undefined) body.max_completion_tokens = max_tokens;
      if (REASONING_MODEL.test(model)) {
        for (const name of ["temperature", "top_p", "presence_penalty", "frequency_penalty"]) delete body[name];
      }
      return body;
    },
    embeddingBatchSize: 256,
    defaultVoice: () => "alloy",
  },
});
