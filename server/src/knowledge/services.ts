import type { ChunkService } from "./chunk.service";
import type { DocumentService } from "./document.service";
import type { GraphExplorerService } from "./graph-explorer";
import type { KbTaskService } from "./kb-tasks/kb-task.service";
import type { KnowledgeBaseService } from "./knowledge-base.service";

declare module "../platform/services" {
  interface Services {
    knowledgeBases: KnowledgeBaseService;
    documents: DocumentService;
    chunks: ChunkService;
    /** RAPTOR and GraphRAG runs over a whole knowledge base. */
    kbTasks: KbTaskService;
    /** The /force explorer over the knowledge graphs a user may read. */
    graphExplorer: GraphExplorerService;
  }
}
