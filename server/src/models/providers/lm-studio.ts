import { openAiCompatibleProvider, selfHostedVendor } from "./openai-compatible";

/** LM Studio's local server (default http://localhost:1234/v1): chat, embeddings and vision models it has loaded. */
export const lmStudio = openAiCompatibleProvider(selfHostedVendor("LM-Studio", ["chat", "embedding", "img2txt"]));
