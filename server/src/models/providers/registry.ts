import { builtin } from "../builtin/builtin.provider";
import type { ProviderDefinition } from "../provider";
import { anthropic } from "./anthropic";
import { azureOpenAi } from "./azure-openai";
import { baiduYiyan } from "./baidu-yiyan";
import { bedrock } from "./bedrock";
import { cohere } from "./cohere";
import { deepSeek } from "./deepseek";
import { fishAudio } from "./fish-audio";
import { gemini } from "./gemini";
import { googleCloud } from "./google-cloud";
import { groq } from "./groq";
import { huggingFace } from "./huggingface";
import { jina } from "./jina";
import { lmStudio } from "./lm-studio";
import { localAi } from "./localai";
import { moonshot } from "./moonshot";
import { ollama } from "./ollama";
import { openAi } from "./openai";
import { openAiApiCompatible } from "./openai-api-compatible";
import { openRouter } from "./openrouter";
import { siliconFlow } from "./siliconflow";
import { tencentCloud } from "./tencent-cloud";
import { tencentHunyuan } from "./tencent-hunyuan";
import { tongyiQianwen } from "./tongyi-qianwen";
import { vllm } from "./vllm";
import { volcEngine } from "./volcengine";
import { voyageAi } from "./voyage-ai";
import { xinference } from "./xinference";
import { xunfeiSpark } from "./xunfei-spark";
import { zhipuAi } from "./zhipu-ai";

/** RAGFlow's name for the models that ship inside Cairn and need no key or network. */
export const BUILTIN_PROVIDER = "Builtin";

/**
 * Every model provider, in the order the settings page lists them: the five most used first (§9),
 * then the clouds that host many vendors' models, the Chinese vendors, routers, retrieval specialists
 * (embedding and rerank), speech, and the self-hosted servers last. Adding a vendor is one module in
 * this folder and one line here.
 */
export const providers: readonly ProviderDefinition[] = [
  builtin,
  openAi,
  azureOpenAi,
  anthropic,
  gemini,
  ollama,
  bedrock,
  googleCloud,
  tongyiQianwen,
  zhipuAi,
  deepSeek,
  moonshot,
  volcEngine,
  baiduYiyan,
  tencentHunyuan,
  xunfeiSpark,
  siliconFlow,
  openRouter,
  groq,
  cohere,
  voyageAi,
  jina,
  fishAudio,
  tencentCloud,
  xinference,
  localAi,
  lmStudio,
  vllm,
  huggingFace,
  openAiApiCompatible,
];

export function findProvider(name: string): ProviderDefinition | undefined {
  return providers.find((p) => p.name.toLowerCase() === name.toLowerCase());
}
