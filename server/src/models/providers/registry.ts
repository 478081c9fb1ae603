import type { ProviderDefinition } from "../provider";
import { anthropic } from "./anthropic";
import { azureOpenAi } from "./azure-openai";
import { deepSeek } from "./deepseek";
import { gemini } from "./gemini";
import { groq } from "./groq";
import { jina } from "./jina";
import { lmStudio } from "./lm-studio";
import { localAi } from "./localai";
import { moonshot } from "./moonshot";
import { ollama } from "./ollama";
import { openAi } from "./openai";
import { openAiApiCompatible } from "./openai-api-compatible";
import { openRouter } from "./openrouter";
import { siliconFlow } from "./siliconflow";
import { tongyiQianwen } from "./tongyi-qianwen";
import { vllm } from "./vllm";
import { volcEngine } from "./volcengine";
import { xinference } from "./xinference";
import { zhipuAi } from "./zhipu-ai";

/** RAGFlow's name for the models that ship inside Cairn and need no key or network. */
export const BUILTIN_PROVIDER = "Builtin";

/**
 * Every model provider, in the order the settings page lists them: the five most used first (§9),
 * then the rest. Adding a vendor is one module in this folder and one line here.
 */
export const providers: readonly ProviderDefinition[] = [
  openAi,
  azureOpenAi,
  anthropic,
  gemini,
  ollama,
  tongyiQianwen,
  zhipuAi,
  deepSeek,
  moonshot,
  volcEngine,
  siliconFlow,
  openRouter,
  groq,
  jina,
  xinference,
  localAi,
  lmStudio,
  vllm,
  openAiApiCompatible,
];

export function findProvider(name: string): ProviderDefinition | undefined {
  return providers.find((p) => p.name.toLowerCase() === name.toLowerCase());
}
