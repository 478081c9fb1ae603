import type { ComponentDefinition } from "../../component";

/** The llm components, in palette order (one import and one line each). */
export const LLM_COMPONENTS: readonly ComponentDefinition[] = [];
