import type { ComponentDefinition } from "../../component";

/** The services components, in palette order (one import and one line each). */
export const SERVICES_COMPONENTS: readonly ComponentDefinition[] = [];
