import type { FieldProblem } from "../platform/errors";
import { isSecret, type ParamSpec } from "../platform/param-spec";
import type { OutboundPolicy } from "../platform/outbound";
import type { ModelClients, ModelType } from "./model-types";

/**
 * A provider's credentials and settings are ParamSpecs (platform/param-spec.ts), so that the settings page
 * draws their form with ParamForm and the service checks them with `validate`. Their labels and help are
 * `models.fields.<key>.label` and `.help` in locales. Of the types a provider uses:
 * - "secret": stored encrypted, never returned in full;
 * - "url": an http(s) URL, and the destination of the secrets (changing it means entering them again);
 * - "select": one of `options`; "string": any text.
 */
export function credential(
  key: string,
  type: "string" | "secret" | "url" | "select",
  options: { required?: boolean; default?: string; options?: readonly string[]; help?: string } = {},
): ParamSpec {
  return {
    key,
    type,
    label: `models.fields.${key}.label`,
    help: options.help ?? `models.fields.${key}.help`,
    required: options.required ?? false,
    ...(options.default !== undefined && { default: options.default }),
    ...(options.options && { options: options.options.map((value) => ({ value })) }),
  };
}

/** A secret typed as base64 text: service-account keys, which hold a private key. */
export function base64Credential(key: string, options: { required?: boolean } = {}): ParamSpec {
  return { ...credential(key, "secret", options), widget: "multiline", check: (value) => (isBase64(value as string) ? [] : [{ code: "base64", messageKey: "errors.model.base64Invalid" }]) };
}

function isBase64(value: string): boolean {
  const compact = value.replace(/\s+/g, "");
  return compact.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(compact) && Buffer.from(compact, "base64").length > 0;
}

/** Secrets are sealed at rest and shown masked. */
export function isSecretField(field: ParamSpec): boolean {
  return isSecret(field);
}

/** A field that says where the secrets are sent: changing it means entering the secrets again. */
export function isDestinationField(field: ParamSpec): boolean {
  return field.type === "url";
}

/** A model the provider is known to offer, proposed in the settings page; users may name others. */
export interface CatalogueModel {
  name: string;
  type: ModelType;
  maxTokens?: number;
  vision?: boolean;
}

/** Everything needed to call one model: its name and type, and the provider entry's credentials (decrypted). */
export interface ModelSpec {
  modelName: string;
  credentials: Record<string, string>;
  maxTokens?: number;
  vision?: boolean;
  /**
   * Where this model's requests may go, from the operator's configuration; ModelsService always sets it.
   * Left out (provider unit tests), loopback and private networks are allowed.
   */
  outbound?: OutboundPolicy;
}

/**
 * One model vendor, self-described. Adding a vendor is one module in providers/ and one line in
 * providers/registry.ts. `name` is RAGFlow's factory name, so that model ids like `glm-4@ZHIPU-AI` mean
 * the same thing here.
 */
export interface ProviderDefinition {
  name: string;
  modelTypes: readonly ModelType[];
  credentialFields: readonly ParamSpec[];
  catalogue?: readonly CatalogueModel[];
  /** Checks beyond required fields and kinds, e.g. a region list or a pair of fields that go together. */
  validate?(credentials: Record<string, string>): FieldProblem[];
  create<T extends ModelType>(type: T, spec: ModelSpec): ModelClients[T];
}

/** The shared fields of OpenAI-style vendors: an API key (may be empty for local servers) and a base URL. */
export function apiKeyAndBaseUrl(defaultBaseUrl: string | undefined, options: { keyRequired?: boolean } = {}): ParamSpec[] {
  const keyRequired = options.keyRequired ?? true;
  return [
    credential("apiKey", "secret", { required: keyRequired, ...(!keyRequired && { help: "models.fields.apiKey.helpOptional" }) }),
    credential("baseUrl", "url", { required: defaultBaseUrl === undefined, default: defaultBaseUrl }),
  ];
}

/** Raised by `create` for a model type the provider does not offer; the service refuses such entries earlier. */
export function unsupportedType(provider: string, type: ModelType): Error {
  return new Error(`${provider} offers no ${type} models`);
}
