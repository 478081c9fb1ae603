import type { ComponentDefinition } from "../../component";
import { crawler } from "./crawler";
import { exeSql } from "./exe-sql";
import { invoke } from "./invoke";

/** The tools components, in palette order (one import and one line each). */
export const TOOLS_COMPONENTS: readonly ComponentDefinition[] = [
  invoke,
  crawler,
  exeSql,
];
