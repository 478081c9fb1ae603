import type { ModelsService } from "../models/models.service";
import { parseModelId } from "../models/models.service";

/** An answer as it is read aloud: without citation markers or Markdown marks. */
export function spokenText(content: string): string {
  return content
    .replace(/\s*\[ID:\d+\]/g, "")
    .replace(/[*_`#>]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** The tenant's default text-to-speech model id, or null when none is set. */
export async function ttsModelOf(models: ModelsService, tenantId: string): Promise<string | null> {
  const id = (await models.defaults(tenantId)).tts;
  return id && parseModelId(id) ? id : null;
}

/**
 * RAGFlow's `audio_binary` of an answer of an assistant with text-to-speech on: the text read by the
 * tenant's TTS model, hex-encoded; null when the tenant has no TTS model or there is nothing to read.
 */
export async function audioBinary(models: ModelsService, tenantId: string, text: string, signal?: AbortSignal): Promise<string | null> {
  const spoken = spokenText(text);
  const model = spoken === "" ? null : await ttsModelOf(models, tenantId);
  if (!model) return null;
  const speech = await (await models.client(tenantId, "tts", model)).synthesize(spoken, { signal });
  const parts: Buffer[] = [];
  for await (const chunk of speech.audio) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts).toString("hex");
}
