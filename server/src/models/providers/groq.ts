import { apiKeyAndBaseUrl } from "../provider";
import { openAiCompatibleProvider } from "./openai-compatible";
import { catalogueOf } from "./shared";

export const groq = openAiCompatibleProvider({
  name: "Groq",
  modelTypes: ["chat", "img2txt", "sequence2txt"],
  credentialFields: apiKeyAndBaseUrl("https://api.groq.com/openai/v1"),
  defaultBaseUrl: "https://api.groq.com/openai/v1",
  catalogue: [
    ...catalogueOf("chat", [
      ["llama-3.3-70b-versatile", 131072],
      ["llama-3.1-8b-instant", 131072],
      ["openai/gpt-oss-120b", 131072],
      ["openai/gpt-oss-20b", 131072],
      ["qwen/qwen3-32b", 131072],
      ["moonshotai/kimi-k2-instruct", 131072],
    ]),
    ...catalogueOf("img2txt", [["meta-llama/llama-4-scout-17b-16e-instruct", 131072], ["meta-llama/llama-4-maverick-17b-128e-instruct", 131072]], { vision: true }),
    ...catalogueOf("sequence2txt", ["whisper-large-v3", "whisper-large-v3-turbo"]),
  ],
});
