import { joinUrl } from "../http";
import { openAiCompatibleProvider } from "./openai-compatible";
import { catalogueOf } from "./shared";
import { credential } from "../provider";

const ARK_BASE_URL = "https://ark.cn-beijing.volces.com/api/v3";

/**
 * Volcano Engine ARK (Doubao). A model is reached through an inference endpoint the user creates in the
 * ARK console: its id (ep-…) is what the requests name, the entry's model name is only a label.
 */
export const volcEngine = openAiCompatibleProvider({
  name: "VolcEngine",
  modelTypes: ["chat", "embedding", "img2txt"],
  credentialFields: [
    credential("endpointId", "string", { required: true }),
    credential("arkKey", "secret", { required: true }),
    credential("baseUrl", "url", { default: ARK_BASE_URL }),
  ],
  catalogue: [
    ...catalogueOf("chat", [["doubao-seed-1-6", 262144], ["doubao-1-5-pro-32k", 32768], ["doubao-1-5-pro-256k", 262144], ["doubao-1-5-lite-32k", 32768], ["deepseek-v3", 131072]]),
    ...catalogueOf("embedding", [["doubao-embedding", 4096], ["doubao-embedding-large", 4096]]),
    ...catalogueOf("img2txt", [["doubao-1-5-vision-pro-32k", 32768]], { vision: true }),
  ],
  endpoint(spec) {
    const baseUrl = spec.credentials.baseUrl || ARK_BASE_URL;
    return {
      provider: "VolcEngine",
      url: (operation) => joinUrl(baseUrl, operation),
      headers: { authorization: `Bearer ${spec.credentials.arkKey ?? ""}` },
      model: spec.credentials.endpointId || spec.modelName,
    };
  },
});
