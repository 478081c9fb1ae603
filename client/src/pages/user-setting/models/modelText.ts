import type { i18n as I18n, TFunction } from "i18next";
import { describeError, messageKeyOf, messageParamsOf, problemText, type Problem } from "../../../errors";
import { humanize } from "../../../components/paramForm.logic";

/** The model types in the order of §3 "System default models". The server may add others; they still show. */
export const MODEL_TYPES = ["chat", "embedding", "img2txt", "sequence2txt", "rerank", "tts"] as const;

/** Only chat and image-to-text models read images, so only they carry the vision-support flag. */
export function canHaveVision(type: string): boolean {
  return type === "chat" || type === "img2txt";
}

const TYPE_PALETTES: Record<string, string> = {
  chat: "brand",
  embedding: "purple",
  img2txt: "green",
  sequence2txt: "teal",
  rerank: "orange",
  tts: "pink",
};

export function typePalette(type: string): string {
  return TYPE_PALETTES[type] ?? "gray";
}

export function typeLabel(t: TFunction, type: string): string {
  return t(`models.types.${type}`, { defaultValue: type });
}

/** A credential field's label, `models.fields.<name>.label` in locales. */
export function fieldLabel(t: TFunction, name: string): string {
  return t(`models.fields.${name}.label`, { defaultValue: humanize(name) });
}

/**
 * The server names fields and types in its messages by their code (`{field: "apiKey"}`, `{type: "img2txt"}`);
 * the user reads the translated label instead.
 */
export function localizedParams(i18n: I18n, params: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!params) return params;
  const result = { ...params };
  if (typeof result.field === "string") result.field = fieldLabel(i18n.t, result.field);
  if (typeof result.type === "string") result.type = typeLabel(i18n.t, result.type);
  return result;
}

export function modelProblemText(i18n: I18n, problem: Problem | undefined): string | undefined {
  return problemText(i18n, problem && { ...problem, params: localizedParams(i18n, problem.params) });
}

/** Two letters that stand for a provider where a logo would be: `Azure-OpenAI` → AO, `OpenAI` → OA, `Ollama` → OL. */
export function monogramOf(name: string): string {
  const words = name.split(/[\s\-_./]+/).filter(Boolean);
  if (words.length >= 2) return (words[0][0] + words[words.length - 1][0]).toUpperCase();
  const word = words[0] ?? "?";
  const capitals = word.replace(/[^A-Z0-9]/g, "");
  return (capitals.length >= 2 ? capitals.slice(0, 2) : word.slice(0, 2)).toUpperCase();
}

const MONOGRAM_PALETTES = ["blue", "teal", "green", "purple", "orange", "pink", "cyan", "red", "yellow"];

/** The same provider always gets the same colour. */
export function monogramPalette(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return MONOGRAM_PALETTES[hash % MONOGRAM_PALETTES.length];
}

/** describeError, with the model type and field named in the user's words. */
export function describeModelError(error: unknown, i18n: I18n): string {
  const key = messageKeyOf(error);
  if (key?.startsWith("errors.model.") && i18n.exists(key)) return i18n.t(key, localizedParams(i18n, messageParamsOf(error)));
  return describeError(error, i18n);
}
