import { MODEL_TYPES } from "../model-types";
import { BUILTIN_PROVIDER, findProvider, providers } from "./registry";

// The factories of RAGFlow v0.24.0's catalogue: a provider here means the same thing as there.
const RAGFLOW_FACTORIES = [
  "OpenAI", "xAI", "TokenPony", "Tongyi-Qianwen", "ZHIPU-AI", "Ollama", "ModelScope", "LocalAI", "OpenAI-API-Compatible", "VLLM",
  "Moonshot", "FastEmbed", "Xinference", "DeepSeek", "VolcEngine", "BaiChuan", "Jina", "Builtin", "MiniMax", "Mistral", "Azure-OpenAI",
  "Bedrock", "Gemini", "Groq", "OpenRouter", "StepFun", "NVIDIA", "LM-Studio", "Cohere", "TogetherAI", "Upstage", "NovitaAI",
  "SILICONFLOW", "PPIO", "Replicate", "Tencent Hunyuan", "XunFei Spark", "BaiduYiyan", "Fish Audio", "Tencent Cloud", "Anthropic",
  "Voyage AI", "GiteeAI", "Google Cloud", "HuggingFace", "GPUStack", "DeepInfra", "302.AI", "CometAPI", "LongCat", "DeerAPI",
  "Jiekou.AI", "MinerU", "PaddleOCR", "n1n",
]; // prettier-ignore

// Local deployments may have no key (§5) but have no public address either.
const SELF_HOSTED = ["Ollama", "LM-Studio", "VLLM", "LocalAI", "Xinference", "HuggingFace", "OpenAI-API-Compatible"];
const KEYED_WITH_PUBLIC_ADDRESS = ["OpenAI", "Anthropic", "Gemini", "Tongyi-Qianwen", "ZHIPU-AI", "DeepSeek", "Moonshot", "SILICONFLOW", "OpenRouter", "Groq", "Jina"];

function field(provider: string, name: string) {
  return findProvider(provider)?.credentialFields.find((f) => f.key === name);
}

describe("the provider registry", () => {
  it("lists the five most used providers first, after the built-in models", () => {
    expect(providers.filter((p) => p.name !== BUILTIN_PROVIDER).slice(0, 5).map((p) => p.name)).toEqual(["OpenAI", "Azure-OpenAI", "Anthropic", "Gemini", "Ollama"]);
  });

  it("names each provider once, with RAGFlow's factory name, found whatever the case", () => {
    const names = providers.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((name) => !RAGFLOW_FACTORIES.includes(name))).toEqual([]);
    expect(findProvider("zhipu-ai")?.name).toBe("ZHIPU-AI");
  });

  it("describes every provider consistently: known model types, a catalogue within them, distinct fields", () => {
    for (const provider of providers) {
      expect({ provider: provider.name, unknownTypes: provider.modelTypes.filter((t) => !MODEL_TYPES.includes(t)) }).toEqual({ provider: provider.name, unknownTypes: [] });
      const offTypes = (provider.catalogue ?? []).filter((m) => !provider.modelTypes.includes(m.type)).map((m) => `${m.name}/${m.type}`);
      expect({ provider: provider.name, offTypes }).toEqual({ provider: provider.name, offTypes: [] });
      const entries = (provider.catalogue ?? []).map((m) => `${m.name}/${m.type}`);
      expect({ provider: provider.name, duplicates: entries.filter((e, i) => entries.indexOf(e) !== i) }).toEqual({ provider: provider.name, duplicates: [] });
      const fields = provider.credentialFields.map((f) => f.key);
      expect({ provider: provider.name, fields: new Set(fields).size }).toEqual({ provider: provider.name, fields: fields.length });
    }
  });

  it.each(KEYED_WITH_PUBLIC_ADDRESS)("%s needs a key; its base URL may be left to the public default", (name) => {
    expect(field(name, "apiKey")).toMatchObject({ type: "secret", required: true });
    expect(field(name, "baseUrl")).toMatchObject({ type: "url", required: false, default: expect.stringMatching(/^https:\/\//) });
  });

  it.each(SELF_HOSTED)("%s, deployed locally, needs a base URL but may have no key", (name) => {
    expect(field(name, "apiKey")).toMatchObject({ type: "secret", required: false });
    expect(field(name, "baseUrl")).toMatchObject({ type: "url", required: true });
  });

  it("Azure OpenAI needs its resource address and has an API version; VolcEngine an endpoint id and an ARK key", () => {
    expect(findProvider("Azure-OpenAI")?.credentialFields).toEqual([
      expect.objectContaining({ key: "apiKey", type: "secret", required: true }),
      expect.objectContaining({ key: "baseUrl", type: "url", required: true }),
      expect.objectContaining({ key: "apiVersion", type: "string", required: false, default: "2024-10-21" }),
    ]);
    expect(field("VolcEngine", "endpointId")).toMatchObject({ type: "string", required: true });
    expect(field("VolcEngine", "arkKey")).toMatchObject({ type: "secret", required: true });
  });

  it("offers RAGFlow's Zhipu catalogue, which RAGFlow clients name", () => {
    const catalogue = findProvider("ZHIPU-AI")?.catalogue ?? [];
    expect(catalogue).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "glm-4-flash", type: "chat" }),
        expect.objectContaining({ name: "glm-4", type: "chat" }),
        expect.objectContaining({ name: "glm-4v", type: "img2txt", vision: true }),
        expect.objectContaining({ name: "embedding-3", type: "embedding" }),
        expect.objectContaining({ name: "glm-asr", type: "sequence2txt" }),
      ]),
    );
    expect(catalogue.filter((m) => m.type === "chat")).toHaveLength(16);
  });

  it("creates a client of every type each of these vendors offers, without calling it", () => {
    for (const name of [...KEYED_WITH_PUBLIC_ADDRESS, ...SELF_HOSTED, "Azure-OpenAI", "VolcEngine"]) {
      const provider = findProvider(name)!;
      for (const type of provider.modelTypes) {
        const credentials = { apiKey: "k", baseUrl: "http://127.0.0.1:9", endpointId: "ep-1", arkKey: "k" };
        expect(provider.create(type, { modelName: "m", credentials })).toBeDefined();
      }
    }
  });
});
