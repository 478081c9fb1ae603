import { jsonResult, RETURN_CODES } from "../rest/envelope";
import { authenticatedRoute, type RestRoute } from "../rest/rest-route";
import { DomainError } from "../platform/errors";
import type { ModelType } from "./model-types";
import { findProvider } from "./providers/registry";

/** RAGFlow's names of the model types, where they differ from ours. */
const RAGFLOW_TYPE_NAMES: Record<ModelType, string> = {
  chat: "chat",
  embedding: "embedding",
  rerank: "rerank",
  img2txt: "image2text",
  sequence2txt: "speech2text",
  tts: "tts",
};

/** The tenant-info keys RAGFlow uses for each default model. */
const TENANT_INFO_KEYS: Record<ModelType, string> = {
  chat: "llm_id",
  embedding: "embd_id",
  rerank: "rerank_id",
  img2txt: "img2txt_id",
  sequence2txt: "asr_id",
  tts: "tts_id",
};

/**
 * RAGFlow's web-API model endpoints that its SDK suites bootstrap with (contract §13, rows 4, 5 and 7),
 * over the same ModelsService the settings pages use.
 */
export const modelsRestRoutes: RestRoute[] = [
  authenticatedRoute("GET", "/v1/llm/my_llms", "login", async ({ services, principal }) => {
    const entries = await services.models.listEntries(principal);
    const byProvider: Record<string, { tags: string; llm: { type: string; name: string; used_token: number; status: string }[] }> = {};
    for (const entry of entries) {
      const group = (byProvider[entry.provider] ??= { tags: "", llm: [] });
      group.llm.push({ type: RAGFLOW_TYPE_NAMES[entry.modelType], name: entry.modelName, used_token: entry.usedTokens, status: "1" });
    }
    for (const group of Object.values(byProvider)) {
      group.tags = [...new Set(group.llm.map((m) => m.type.toUpperCase()))].join(",");
    }
    return jsonResult(RETURN_CODES.SUCCESS, "success", byProvider);
  }),

  // Stores the key for every catalogue model of the provider, without calling the vendor (a keyless server cannot).
  authenticatedRoute("POST", "/v1/llm/set_api_key", "login", async ({ services, principal, body }) => {
    const missing = ["llm_factory", "api_key"].filter((name) => !(name in body));
    if (missing.length) return jsonResult(RETURN_CODES.ARGUMENT_ERROR, `required argument are missing: ${missing.join(",")}; `);
    const provider = findProvider(String(body.llm_factory));
    if (!provider) return jsonResult(RETURN_CODES.DATA_ERROR, `LLM factory ${String(body.llm_factory)} not found`);
    const credentials: Record<string, string> = { apiKey: String(body.api_key ?? "") };
    if (typeof body.base_url === "string" && body.base_url) credentials.baseUrl = body.base_url;
    try {
      await services.models.addCatalogue(principal, provider.name, credentials);
    } catch (error) {
      if (error instanceof DomainError) return jsonResult(RETURN_CODES.DATA_ERROR, error.message);
      throw error;
    }
    return jsonResult(RETURN_CODES.SUCCESS, "success", true);
  }),

  authenticatedRoute("POST", "/v1/user/set_tenant_info", "login", async ({ services, principal, body }) => {
    const missing = ["tenant_id", "asr_id", "embd_id", "img2txt_id", "llm_id"].filter((name) => !(name in body));
    if (missing.length) return jsonResult(RETURN_CODES.ARGUMENT_ERROR, `required argument are missing: ${missing.join(",")}; `);
    const choices: Partial<Record<ModelType, string>> = {};
    for (const [type, key] of Object.entries(TENANT_INFO_KEYS) as [ModelType, string][]) {
      if (typeof body[key] === "string") choices[type] = body[key] as string;
    }
    try {
      await services.models.setDefaults(principal, choices);
    } catch (error) {
      if (error instanceof DomainError) return jsonResult(RETURN_CODES.DATA_ERROR, error.message);
      throw error;
    }
    return jsonResult(RETURN_CODES.SUCCESS, "success", true);
  }),
];

/** The default-model part of RAGFlow's tenant_info answer. */
export function tenantInfoModels(defaults: Record<ModelType, string>): Record<string, string> {
  return Object.fromEntries((Object.entries(TENANT_INFO_KEYS) as [ModelType, string][]).map(([type, key]) => [key, defaults[type]]));
}
