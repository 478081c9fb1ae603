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
 * RAGFlow's `audio_binary` for the answers of an assistant with text-to-speech on: a function giving a
 * text read by the tenant's TTS model, hex-encoded (null when there is nothing to read), or null when the
 * tenant has no TTS model. The model is looked up once, not for each streamed piece.
 */
export async function audioEncoder(models: ModelsService, tenantId: string): Promise<((text: string) => Promise<string | null>) | null> {
  const model = await ttsModelOf(models, tenantId);
  if (!model) return null;
  const client = await models.client(tenantId, "tts", model);
  return async (text) => {
    const spoken = spokenText(text);
    if (spoken === "") return null;
    const speech = await client.synthesize(spoken);
    const parts: Buffer[] = [];
    for await (const chunk of speech.audio) parts.push(Buffer.from(chunk));
    return Buffer.concat(parts).toString("hex");
  };
}
