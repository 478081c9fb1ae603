import type { ComponentDefinition } from "../../component";

/** The tools components, in palette order (one import and one line each). */
export const TOOLS_COMPONENTS: readonly ComponentDefinition[] = [];
