import { joinUrl, ModelCallError } from "../http";
import { openAiCompatibleProvider } from "./openai-compatible";
import { catalogueOf } from "./shared";
import { credential } from "../provider";

/** The GA version used when the entry names none; Azure dates every version of its REST API. */
export const AZURE_DEFAULT_API_VERSION = "2024-10-21";

/**
 * Azure OpenAI: the model name is the deployment name, which sits in the path; the version is a
 * query parameter; the key travels in `api-key`.
 */
export const azureOpenAi = openAiCompatibleProvider({
  name: "Azure-OpenAI",
  modelTypes: ["chat", "embedding", "img2txt", "sequence2txt", "tts"],
  credentialFields: [
    credential("apiKey", "secret", { required: true }),
    credential("baseUrl", "url", { required: true }),
    credential("apiVersion", "string", { default: AZURE_DEFAULT_API_VERSION }),
  ],
  catalogue: [
    ...catalogueOf("chat", [["gpt-4.1", 1047576], ["gpt-4.1-mini", 1047576], ["o4-mini", 200000], ["gpt-35-turbo", 16385]]),
    ...catalogueOf("chat", [["gpt-4o", 128000], ["gpt-4o-mini", 128000]], { vision: true }),
    ...catalogueOf("embedding", [["text-embedding-3-small", 8191], ["text-embedding-3-large", 8191], ["text-embedding-ada-002", 8191]]),
    ...catalogueOf("img2txt", [["gpt-4o", 128000], ["gpt-4o-mini", 128000]], { vision: true }),
    ...catalogueOf("sequence2txt", ["whisper"]),
    ...catalogueOf("tts", ["tts", "tts-hd"]),
  ],
  endpoint(spec) {
    const baseUrl = spec.credentials.baseUrl;
    if (!baseUrl) throw new ModelCallError("badRequest", "Azure-OpenAI", "no base URL is set");
    const version = encodeURIComponent(spec.credentials.apiVersion || AZURE_DEFAULT_API_VERSION);
    const deployment = encodeURIComponent(spec.modelName);
    return {
      provider: "Azure-OpenAI",
      url: (operation) => `${joinUrl(baseUrl, `openai/deployments/${deployment}/${operation}`)}?api-version=${version}`,
      headers: { "api-key": spec.credentials.apiKey ?? "" },
      model: spec.modelName,
    };
  },
  quirks: (spec) => ({
    embeddingBatchSize: 16,
    defaultVoice: () => "alloy",
    // API versions before 2024-09-01 refuse stream_options; their streams then carry no usage.
    chatBody: ({ stream_options, ...body }) => ((spec.credentials.apiVersion || AZURE_DEFAULT_API_VERSION) < "2024-09-01" ? body : { ...body, stream_options }),
  }),
});
