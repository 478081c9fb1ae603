import { apiKeyAndBaseUrl } from "../provider";
import { openAiCompatibleProvider } from "./openai-compatible";
import { catalogueOf } from "./shared";

/** One key for many vendors' models, named vendor/model. */
export const openRouter = openAiCompatibleProvider({
  name: "OpenRouter",
  modelTypes: ["chat", "img2txt"],
  credentialFields: apiKeyAndBaseUrl("https://openrouter.ai/api/v1"),
  defaultBaseUrl: "https://openrouter.ai/api/v1",
  catalogue: [
    ...catalogueOf("chat", [
      ["openai/gpt-4o-mini", 128000],
      ["openai/gpt-4.1", 1047576],
      ["anthropic/claude-sonnet-4", 200000],
      ["google/gemini-2.5-flash", 1048576],
      ["deepseek/deepseek-chat", 163840],
      ["meta-llama/llama-3.3-70b-instruct", 131072],
      ["qwen/qwen-2.5-72b-instruct", 32768],
    ]),
    ...catalogueOf("img2txt", [["openai/gpt-4o", 128000], ["google/gemini-2.5-flash", 1048576], ["anthropic/claude-sonnet-4", 200000]], { vision: true }),
  ],
});
