import type { ChunkService } from "./chunk.service";
import type { ChunkMergeService } from "./chunk-merge.service";
import type { DocumentService } from "./document.service";
import type { GraphExplorerService } from "./graph-explorer";
import type { KbTaskService } from "./kb-tasks/kb-task.service";
import type { KnowledgeBaseService } from "./knowledge-base.service";
import type { PostingsPacker } from "./packed-postings";

declare module "../platform/services" {
  interface Services {
    knowledgeBases: KnowledgeBaseService;
    documents: DocumentService;
    chunks: ChunkService;
    /** Packs knowledge bases' postings for keyword search once they stop changing. */
    postingsPacker: PostingsPacker;
    /** Merging chosen chunks into one chunk or a new document (/search/merge). */
    chunkMerges: ChunkMergeService;
    /** RAPTOR and GraphRAG runs over a whole knowledge base. */
    kbTasks: KbTaskService;
    /** The /force explorer over the knowledge graphs a user may read. */
    graphExplorer: GraphExplorerService;
  }
}
