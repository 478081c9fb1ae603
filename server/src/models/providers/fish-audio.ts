import { callProvider, joinUrl, speechOf } from "../http";
import type { ModelClients, ModelType, SpeechResult } from "../model-types";
import type { ModelSpec, ProviderDefinition } from "../provider";
import { pickClient } from "./shared";
import { credential } from "../provider";

const PROVIDER = "Fish Audio";
const DEFAULT_BASE_URL = "https://api.fish.audio";

export interface FishAudioOptions {
  timeoutMs?: number;
}

/**
 * Fish Audio text to speech (POST /v1/tts): the voice is a reference model id, and a blank id lets Fish
 * Audio speak with its default voice (§5). The model name goes in the `model` header (speech-1.5, s1, …).
 * The MP3 arrives in chunks as it is synthesized and is handed on as it comes.
 */
export function fishAudioProvider(options: FishAudioOptions = {}): ProviderDefinition {
  return {
    name: PROVIDER,
    modelTypes: ["tts"],
    credentialFields: [
      credential("apiKey", "secret", { required: true }),
      credential("referenceId", "string"),
      credential("baseUrl", "url", { default: DEFAULT_BASE_URL }),
    ],
    catalogue: [
      { name: "s1", type: "tts" },
      { name: "speech-1.6", type: "tts" },
      { name: "speech-1.5", type: "tts" },
    ],
    create<T extends ModelType>(type: T, spec: ModelSpec): ModelClients[T] {
      return pickClient(PROVIDER, type, { tts: () => ({ synthesize: (text, ttsOptions) => synthesize(spec, options, text, ttsOptions) }) });
    },
  };
}

export const fishAudio = fishAudioProvider();

async function synthesize(spec: ModelSpec, options: FishAudioOptions, text: string, ttsOptions: { voice?: string; signal?: AbortSignal } = {}): Promise<SpeechResult> {
  const referenceId = ttsOptions.voice || spec.credentials.referenceId || undefined;
  const response = await callProvider({
    provider: PROVIDER,
    url: joinUrl(spec.credentials.baseUrl || DEFAULT_BASE_URL, "v1/tts"),
    outbound: spec.outbound,
    headers: { authorization: `Bearer ${spec.credentials.apiKey ?? ""}`, model: spec.modelName },
    body: { text, reference_id: referenceId, format: "mp3", mp3_bitrate: 128, normalize: true, latency: "normal", chunk_length: 200 },
    timeoutMs: options.timeoutMs,
    signal: ttsOptions.signal,
  });
  return speechOf(response, PROVIDER);
}
