import type { FlowDsl } from "../dsl";

/**
 * The flows a user can start from (adapted from RAGFlow's ten templates, and Cairn's own). Each has its texts in
 * every locale (`flow.templates.<id>.title`, `.description`) and a DSL that passes validation.
 */
export interface FlowTemplate {
  id: string;
  /** Message keys. */
  title: string;
  description: string;
  /** What the template needs beyond the built-in models: a knowledge base, keys of outside services. */
  needs: readonly ("knowledgeBase" | "apiKey" | "internet" | "database")[];
  dsl: FlowDsl;
}
