import { apiKeyAndBaseUrl } from "../provider";
import { openAiCompatibleProvider } from "./openai-compatible";
import { catalogueOf } from "./shared";

export const moonshot = openAiCompatibleProvider({
  name: "Moonshot",
  modelTypes: ["chat", "img2txt"],
  credentialFields: apiKeyAndBaseUrl("https://api.moonshot.cn/v1"),
  defaultBaseUrl: "https://api.moonshot.cn/v1",
  catalogue: [
    ...catalogueOf("chat", [["kimi-k2-0905-preview", 262144], ["kimi-k2-turbo-preview", 262144], ["kimi-latest", 131072], ["moonshot-v1-8k", 8192], ["moonshot-v1-32k", 32768], ["moonshot-v1-128k", 131072]]),
    ...catalogueOf("img2txt", [["moonshot-v1-8k-vision-preview", 8192], ["moonshot-v1-32k-vision-preview", 32768], ["moonshot-v1-128k-vision-preview", 131072]], { vision: true }),
  ],
});
