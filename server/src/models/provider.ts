import type { FieldProblem } from "../platform/errors";
import type { OutboundPolicy } from "../platform/outbound";
import type { ModelClients, ModelType } from "./model-types";

/**
 * A credential or setting a provider needs, described so that the settings page can draw its form and
 * the service can check it. Labels and help are `models.fields.<name>` in locales.
 * - "secret": stored encrypted, never returned in full;
 * - "url": must be an http(s) URL;
 * - "base64": must decode as base64 when given;
 * - "select": one of `options`.
 */
export interface CredentialField {
  name: string;
  kind: "text" | "secret" | "url" | "select" | "base64";
  required: boolean;
  options?: readonly string[];
  default?: string;
}

/** Secrets are sealed at rest and shown masked: API keys, and base64 service-account keys, which hold a private key. */
export function isSecretField(field: CredentialField): boolean {
  return field.kind === "secret" || field.kind === "base64";
}

/** A field that says where the secrets are sent: changing it means entering the secrets again. */
export function isDestinationField(field: CredentialField): boolean {
  return field.kind === "url";
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
  credentialFields: readonly CredentialField[];
  catalogue?: readonly CatalogueModel[];
  /** Checks beyond required fields and kinds, e.g. a region list or a pair of fields that go together. */
  validate?(credentials: Record<string, string>): FieldProblem[];
  create<T extends ModelType>(type: T, spec: ModelSpec): ModelClients[T];
}

/** The shared fields of OpenAI-style vendors: an API key (may be empty for local servers) and a base URL. */
export function apiKeyAndBaseUrl(defaultBaseUrl: string | undefined, options: { keyRequired?: boolean } = {}): CredentialField[] {
  return [
    { name: "apiKey", kind: "secret", required: options.keyRequired ?? true },
    { name: "baseUrl", kind: "url", required: defaultBaseUrl === undefined, default: defaultBaseUrl },
  ];
}

/** Raised by `create` for a model type the provider does not offer; the service refuses such entries earlier. */
export function unsupportedType(provider: string, type: ModelType): Error {
  return new Error(`${provider} offers no ${type} models`);
}
