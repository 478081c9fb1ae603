import { freedomOf, type FreedomPreset } from "../../../components/freedom";

/**
 * A flow node's chat-model settings (server/src/flows/params.ts modelParams): `llm_id` (empty: the team's default
 * chat model) and the sampling values, each used only when set (null: the model's own default, RAGFlow's switch
 * beside each). The freedom presets set the four sampling values, as in a chat assistant's settings.
 */

export const SAMPLING_KEYS = ["temperature", "top_p", "presence_penalty", "frequency_penalty"] as const;
export type SamplingKey = (typeof SAMPLING_KEYS)[number];

/** The params a preset sets. */
export function presetParams(preset: FreedomPreset): Record<SamplingKey, number> {
  return { temperature: preset.temperature, top_p: preset.topP, presence_penalty: preset.presencePenalty, frequency_penalty: preset.frequencyPenalty };
}

/** The preset the params match, "custom" when a value was changed by hand or switched off. */
export function freedomOfParams(params: Record<string, unknown>, presets: FreedomPreset[]): string {
  const [temperature, topP, presencePenalty, frequencyPenalty] = SAMPLING_KEYS.map((key) => (typeof params[key] === "number" ? (params[key] as number) : Number.NaN));
  return freedomOf({ temperature, topP, presencePenalty, frequencyPenalty }, presets);
}

/** "gpt-4o@OpenAI" → "gpt-4o": how a model id reads on the canvas. */
export function modelName(llmId: string): string {
  const at = llmId.lastIndexOf("@");
  return at > 0 ? llmId.slice(0, at) : llmId;
}
