import { ModelCallError } from "../http";
import { bearerEndpoint, openAiCompatibleProvider } from "./openai-compatible";
import { credential } from "../provider";

/**
 * Any server that speaks the OpenAI protocol at a base URL the user gives, taken literally (no /v1 is
 * added: gateways mount it anywhere). The key may be empty for local deployments (§5).
 */
export const openAiApiCompatible = openAiCompatibleProvider({
  name: "OpenAI-API-Compatible",
  modelTypes: ["chat", "embedding", "rerank", "img2txt", "sequence2txt", "tts"],
  credentialFields: [
    credential("apiKey", "secret", { help: "models.fields.apiKey.helpOptional" }),
    credential("baseUrl", "url", { required: true }),
  ],
  catalogue: [],
  endpoint(spec) {
    if (!spec.credentials.baseUrl) throw new ModelCallError("badRequest", "OpenAI-API-Compatible", "no base URL is set");
    return bearerEndpoint("OpenAI-API-Compatible", spec.credentials.baseUrl, spec.credentials.apiKey, spec.modelName);
  },
  quirks: {
    // Text Embeddings Inference names the documents `texts`; vLLM, Jina-style and Cohere-style servers
    // call them `documents` and ignore the other name, so both are sent.
    rerankBody: (body) => ({ ...body, texts: body.documents }),
  },
});
