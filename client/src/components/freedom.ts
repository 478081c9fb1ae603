/**
 * The "freedom" presets of a chat model's settings (§3: improvise, precise, balance), as chat assistants and flow
 * nodes offer them: a preset sets temperature, top P and the two penalties; values changed by hand are "custom".
 * The presets' values come from the server (assistantDefaults.freedomPresets).
 */

export const FREEDOMS = ["improvise", "precise", "balance"] as const;
export const CUSTOM_FREEDOM = "custom";

export interface Sampling {
  temperature: number;
  topP: number;
  presencePenalty: number;
  frequencyPenalty: number;
}

export interface FreedomPreset extends Sampling {
  name: string;
}

/** The preset whose four values these are, else "custom" (a value was changed by hand). */
export function freedomOf(values: Sampling, presets: FreedomPreset[]): string {
  const matching = presets.find(
    (preset) =>
      preset.temperature === values.temperature && preset.topP === values.topP && preset.presencePenalty === values.presencePenalty && preset.frequencyPenalty === values.frequencyPenalty,
  );
  return matching?.name ?? CUSTOM_FREEDOM;
}
