import type { ComponentDefinition } from "../../component";
import { agentComponent } from "./agent";
import { categorizeComponent } from "./categorize";
import { generateComponent } from "./generate";
import { keywordExtractComponent } from "./keyword-extract";
import { relevantComponent } from "./relevant";
import { retrievalComponent } from "./retrieval";
import { rewriteQuestionComponent } from "./rewrite-question";

/** The llm components, in palette order (one import and one line each). */
export const LLM_COMPONENTS: readonly ComponentDefinition[] = [
  retrievalComponent,
  generateComponent,
  categorizeComponent,
  relevantComponent,
  rewriteQuestionComponent,
  keywordExtractComponent,
  agentComponent,
];
