import { apiKeyAndBaseUrl } from "../provider";
import { openAiCompatibleProvider } from "./openai-compatible";
import { catalogueOf } from "./shared";

/**
 * deepseek-reasoner streams its reasoning as `reasoning_content`, which the chat client passes on inside <think>.
 * DeepSeek's JSON output is json_object only.
 */
export const deepSeek = openAiCompatibleProvider({
  name: "DeepSeek",
  modelTypes: ["chat"],
  credentialFields: apiKeyAndBaseUrl("https://api.deepseek.com/v1"),
  defaultBaseUrl: "https://api.deepseek.com/v1",
  catalogue: catalogueOf("chat", [["deepseek-chat", 128000], ["deepseek-reasoner", 128000]]),
  quirks: { jsonObjectOnly: true },
});
