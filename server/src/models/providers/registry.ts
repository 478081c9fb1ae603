import type { ProviderDefinition } from "../provider";

/** RAGFlow's name for the models that ship inside Cairn and need no key or network. */
export const BUILTIN_PROVIDER = "Builtin";

/**
 * Every model provider, in the order the settings page lists them: the five most used first (§9),
 * then the rest. Adding a vendor is one module in this folder and one line here.
 */
export const providers: readonly ProviderDefinition[] = [];

export function findProvider(name: string): ProviderDefinition | undefined {
  return providers.find((p) => p.name.toLowerCase() === name.toLowerCase());
}
