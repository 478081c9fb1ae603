import type { ComponentDefinition } from "../component";
import { CORE_COMPONENTS } from "./core";
import { LLM_COMPONENTS } from "./llm";
import { SEARCH_COMPONENTS } from "./search";
import { SERVICES_COMPONENTS } from "./services";
import { TOOLS_COMPONENTS } from "./tools";

/**
 * Every flow component Cairn has, in the editor's palette order (RAGFlow's `componentMenuList`, then Cairn's
 * own). Each folder lists its components; a component is one file there and one line in its folder's list.
 */
export const COMPONENTS: readonly ComponentDefinition[] = [...LLM_COMPONENTS, ...CORE_COMPONENTS, ...SEARCH_COMPONENTS, ...SERVICES_COMPONENTS, ...TOOLS_COMPONENTS];

const BY_NAME = new Map(COMPONENTS.map((component) => [component.name, component]));

export function componentNamed(name: string): ComponentDefinition | undefined {
  return BY_NAME.get(name);
}
