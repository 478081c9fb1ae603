import type { ComponentDefinition } from "../../component";

/** The core components, in palette order (one import and one line each). */
export const CORE_COMPONENTS: readonly ComponentDefinition[] = [];
