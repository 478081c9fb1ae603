import path from "node:path";
import { ModelCallError } from "../http";
import type { AudioInput, ModelClients, ModelType, TextResult } from "../model-types";
import type { ModelSpec, ProviderDefinition } from "../provider";
import { pickClient } from "./shared";
import { tencentApiJson } from "./tencent-cloud-api";
import { credential } from "../provider";

const PROVIDER = "Tencent Cloud";
const ENDPOINT = "https://asr.tencentcloudapi.com";

/** One-sentence recognition takes at most 60 s of audio and 3 MB of data. */
const MAX_AUDIO_BYTES = 3 * 1024 * 1024;

export interface TencentCloudOptions {
  /** Replaces https://asr.tencentcloudapi.com (tests); the host is part of the signature. */
  endpoint?: string;
  timeoutMs?: number;
}

/**
 * Tencent Cloud speech recognition through the one-sentence API (SentenceRecognition, asr 2019-06-14):
 * the audio goes inline, base64, and the text comes back in the same answer. The model name is the
 * engine type (16k_zh, 16k_en, …). The app id is kept for the real-time and file recognition APIs,
 * which sign with it; the one-sentence API needs only the secret id and key.
 */
export function tencentCloudProvider(options: TencentCloudOptions = {}): ProviderDefinition {
  return {
    name: PROVIDER,
    modelTypes: ["sequence2txt"],
    credentialFields: [
      credential("appId", "string"),
      credential("secretId", "secret", { required: true }),
      credential("secretKey", "secret", { required: true }),
    ],
    catalogue: [
      { name: "16k_zh", type: "sequence2txt" },
      { name: "16k_zh-PY", type: "sequence2txt" },
      { name: "16k_en", type: "sequence2txt" },
      { name: "16k_zh_dialect", type: "sequence2txt" },
      { name: "16k_yue", type: "sequence2txt" },
      { name: "16k_ja", type: "sequence2txt" },
      { name: "8k_zh", type: "sequence2txt" },
    ],
    create<T extends ModelType>(type: T, spec: ModelSpec): ModelClients[T] {
      return pickClient(PROVIDER, type, { sequence2txt: () => ({ transcribe: (audio, transcribeOptions) => recognize(spec, options, audio, transcribeOptions?.signal) }) });
    },
  };
}

export const tencentCloud = tencentCloudProvider();

const FORMATS: Record<string, string> = {
  wav: "wav",
  pcm: "pcm",
  ogg: "ogg-opus",
  opus: "ogg-opus",
  speex: "speex",
  silk: "silk",
  mp3: "mp3",
  mpeg: "mp3",
  m4a: "m4a",
  mp4: "m4a",
  aac: "aac",
  amr: "amr",
};

/** SentenceRecognition's VoiceFormat, from the file's extension or else its MIME type. */
export function voiceFormat(audio: AudioInput): string {
  const extension = path.extname(audio.fileName).slice(1).toLowerCase();
  const subtype = audio.mimeType.split("/")[1]?.split(";")[0].replace(/^x-/, "").toLowerCase() ?? "";
  const format = FORMATS[extension] ?? FORMATS[subtype] ?? (subtype === "wave" ? "wav" : undefined);
  if (!format) throw new ModelCallError("badRequest", PROVIDER, `${audio.fileName} (${audio.mimeType}) is not an audio format Tencent Cloud recognizes (wav, pcm, ogg-opus, speex, silk, mp3, m4a, aac, amr)`);
  return format;
}

async function recognize(spec: ModelSpec, options: TencentCloudOptions, audio: AudioInput, signal?: AbortSignal): Promise<TextResult> {
  if (audio.data.length > MAX_AUDIO_BYTES) {
    throw new ModelCallError("badRequest", PROVIDER, `one-sentence recognition takes at most 3 MB and 60 s of audio; this file has ${(audio.data.length / 1024 / 1024).toFixed(1)} MB`);
  }
  const answer = await tencentApiJson<{ Result?: string; AudioDuration?: number }>({
    provider: PROVIDER,
    endpoint: options.endpoint ?? ENDPOINT,
    service: "asr",
    action: "SentenceRecognition",
    version: "2019-06-14",
    secretId: spec.credentials.secretId ?? "",
    secretKey: spec.credentials.secretKey ?? "",
    payload: {
      EngSerViceType: spec.modelName,
      SourceType: 1,
      VoiceFormat: voiceFormat(audio),
      Data: audio.data.toString("base64"),
      DataLen: audio.data.length,
      // Required by the first releases of the API and still accepted: project 0, sub-service 2 (one sentence).
      ProjectId: 0,
      SubServiceType: 2,
    },
    timeoutMs: options.timeoutMs,
    signal,
    outbound: spec.outbound,
  });
  return { text: answer.Result ?? "" };
}
