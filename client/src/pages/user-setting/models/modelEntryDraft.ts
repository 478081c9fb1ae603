import type { FieldProblems } from "../../../errors";
import type { ModelEntryInput, ModelEntryRowFragment, ModelProviderInfoFragment } from "../../../graphql/gql/graphql";
import { canHaveVision } from "./modelText";

/** The model entry form's draft: what it starts from, the checks that need no round trip, and the input it sends. */

/** A credential or setting of the provider, as the server declares it (a ParamSpec). */
export type CredentialField = ModelProviderInfoFragment["credentialFields"][number];

export interface Draft {
  modelType: string;
  modelName: string;
  credentials: Record<string, string>;
  maxTokens: string;
  vision: boolean;
}

/** The fields of the form itself; a server problem about anything else is shown above the form. */
export const FORM_FIELDS = new Set(["modelType", "modelName", "maxTokens", "vision"]);

function firstValueOf(field: CredentialField): string {
  const fallback = typeof field.default === "string" ? field.default : undefined;
  if (field.type === "select") return fallback ?? (field.required ? (field.options[0]?.value ?? "") : "");
  // A default base URL is written out, so that the user sees which address will be called.
  return fallback ?? "";
}

export function initialDraft(provider: ModelProviderInfoFragment, entry: ModelEntryRowFragment | null): Draft {
  if (!entry) {
    return {
      modelType: provider.modelTypes[0] ?? "",
      modelName: "",
      credentials: Object.fromEntries(provider.credentialFields.map((field) => [field.key, firstValueOf(field)])),
      maxTokens: "",
      vision: false,
    };
  }
  const stored = new Map(entry.credentials.map((credential) => [credential.name, credential]));
  return {
    modelType: entry.modelType,
    modelName: entry.modelName,
    // A secret is never shown; left empty, the stored one is kept.
    credentials: Object.fromEntries(
      provider.credentialFields.map((field) => {
        const value = stored.get(field.key);
        return [field.key, value ? (value.secret ? "" : value.value) : firstValueOf(field)];
      }),
    ),
    maxTokens: entry.maxTokens == null ? "" : String(entry.maxTokens),
    vision: entry.vision,
  };
}

function isHttpUrl(value: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** Two spellings of one address (a trailing slash, the host's case) are the same destination, as the server sees it. */
export function sameAddress(a: string, b: string): boolean {
  const normal = (value: string) => {
    try {
      return new URL(value.trim()).href.replace(/\/+$/, "");
    } catch {
      return value.trim();
    }
  };
  return normal(a) === normal(b);
}

/**
 * The server's checks that need no round trip; it makes them all again. An empty secret field keeps the
 * stored secret, unless the address changed: a saved key only goes where it was saved for.
 */
export function checkDraft(provider: ModelProviderInfoFragment, draft: Draft, storedSecrets: Record<string, string>, addressChanged: boolean): FieldProblems {
  const problems: FieldProblems = {};
  if (!draft.modelType) problems.modelType = { key: "errors.model.typeRequired" };
  if (!draft.modelName.trim()) problems.modelName = { key: "errors.model.nameRequired" };
  else if (draft.modelName.trim().length > 255) problems.modelName = { key: "errors.model.nameTooLong" };
  if (draft.maxTokens.trim() && !(/^\d+$/.test(draft.maxTokens.trim()) && Number(draft.maxTokens) > 0)) {
    problems.maxTokens = { key: "errors.model.maxTokensInvalid" };
  }
  for (const field of provider.credentialFields) {
    const value = (draft.credentials[field.key] ?? "").trim();
    if (addressChanged && !value && storedSecrets[field.key]) {
      problems[field.key] = { key: "errors.model.secretForNewAddress", params: { field: field.key } };
    } else if (field.required && !value && !field.default && !storedSecrets[field.key]) {
      problems[field.key] = { key: "errors.model.fieldRequired", params: { field: field.key } };
    } else if (value && field.type === "url" && !isHttpUrl(value)) {
      problems[field.key] = { key: "errors.model.urlInvalid" };
    }
  }
  return problems;
}

export function inputOf(provider: ModelProviderInfoFragment, draft: Draft): ModelEntryInput {
  return {
    provider: provider.name,
    modelName: draft.modelName.trim(),
    modelType: draft.modelType,
    credentials: provider.credentialFields.map((field) => ({ name: field.key, value: (draft.credentials[field.key] ?? "").trim() })),
    maxTokens: draft.maxTokens.trim() ? Number(draft.maxTokens) : null,
    vision: canHaveVision(draft.modelType) && draft.vision,
  };
}
