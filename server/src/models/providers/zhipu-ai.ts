import { apiKeyAndBaseUrl } from "../provider";
import { openAiCompatibleProvider } from "./openai-compatible";
import { catalogueOf } from "./shared";

/** Zhipu's open platform (BigModel), v4 API. The catalogue is the one RAGFlow registers with a key. */
export const zhipuAi = openAiCompatibleProvider({
  name: "ZHIPU-AI",
  modelTypes: ["chat", "embedding", "img2txt", "sequence2txt"],
  credentialFields: apiKeyAndBaseUrl("https://open.bigmodel.cn/api/paas/v4"),
  defaultBaseUrl: "https://open.bigmodel.cn/api/paas/v4",
  catalogue: [
    ...catalogueOf("chat", [
      ["glm-4.7", 200000],
      ["glm-4.5", 128000],
      ["glm-4.5-x", 128000],
      ["glm-4.5-air", 128000],
      ["glm-4.5-airx", 128000],
      ["glm-4.5-flash", 128000],
      ["glm-4-plus", 128000],
      ["glm-4-0520", 128000],
      ["glm-4", 128000],
      ["glm-4-airx", 8192],
      ["glm-4-air", 128000],
      ["glm-4-flash", 128000],
      ["glm-4-flashx", 128000],
      ["glm-4-long", 1000000],
      ["glm-3-turbo", 128000],
      ["glm-4-9b", 8192],
    ]),
    ...catalogueOf("img2txt", [["glm-4.5v", 65536], ["glm-4v", 8192]], { vision: true }),
    ...catalogueOf("embedding", [["embedding-2", 512], ["embedding-3", 8192]]),
    ...catalogueOf("sequence2txt", ["glm-asr"]),
  ],
  quirks: {
    // The v4 API has no presence or frequency penalty and refuses requests that carry them.
    chatBody({ presence_penalty, frequency_penalty, ...body }) {
      return body;
    },
    embeddingBatchSize: 64,
  },
});
