import type { ComponentDefinition } from "../../component";

/** The search components, in palette order (one import and one line each). */
export const SEARCH_COMPONENTS: readonly ComponentDefinition[] = [];
