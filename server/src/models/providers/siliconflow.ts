import { apiKeyAndBaseUrl } from "../provider";
import { openAiCompatibleProvider } from "./openai-compatible";
import { catalogueOf } from "./shared";

export const siliconFlow = openAiCompatibleProvider({
  name: "SILICONFLOW",
  modelTypes: ["chat", "embedding", "rerank", "img2txt", "sequence2txt", "tts"],
  credentialFields: apiKeyAndBaseUrl("https://api.siliconflow.cn/v1"),
  defaultBaseUrl: "https://api.siliconflow.cn/v1",
  catalogue: [
    ...catalogueOf("chat", [
      ["deepseek-ai/DeepSeek-V3", 65536],
      ["deepseek-ai/DeepSeek-R1", 65536],
      ["Qwen/Qwen3-8B", 131072],
      ["Qwen/Qwen2.5-72B-Instruct", 32768],
      ["Qwen/Qwen2.5-7B-Instruct", 32768],
      ["THUDM/glm-4-9b-chat", 131072],
    ]),
    ...catalogueOf("embedding", [
      ["BAAI/bge-m3", 8192],
      ["BAAI/bge-large-zh-v1.5", 512],
      ["BAAI/bge-large-en-v1.5", 512],
      ["netease-youdao/bce-embedding-base_v1", 512],
      ["Qwen/Qwen3-Embedding-8B", 32768],
    ]),
    ...catalogueOf("rerank", [["BAAI/bge-reranker-v2-m3", 8192], ["netease-youdao/bce-reranker-base_v1", 512], ["Qwen/Qwen3-Reranker-8B", 32768]]),
    ...catalogueOf("img2txt", [["Qwen/Qwen2.5-VL-72B-Instruct", 131072], ["deepseek-ai/deepseek-vl2", 4096]], { vision: true }),
    ...catalogueOf("sequence2txt", ["FunAudioLLM/SenseVoiceSmall"]),
    ...catalogueOf("tts", ["FunAudioLLM/CosyVoice2-0.5B"]),
  ],
  quirks: {
    embeddingBatchSize: 32,
    // SiliconFlow's voices are named after their model: "FunAudioLLM/CosyVoice2-0.5B:alex".
    defaultVoice: (model) => `${model}:alex`,
  },
});
