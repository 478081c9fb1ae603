import type { AssistantService } from "../chat/assistant.service";
import type { ConversationService } from "../chat/conversation.service";
import type { FileService } from "../files/file.service";
import type { FlowService } from "../flows/flow.service";
import type { DocumentService } from "../knowledge/document.service";
import type { SearchService } from "../search/search.service";
import { assistantWorks } from "./sources/assistants";
import { fileWorks } from "./sources/files";
import { flowWorks } from "./sources/flows";
import { knowledgeBaseWorks } from "./sources/knowledge-bases";
import { searchWorks } from "./sources/searches";
import type { WorkSource } from "./work-source";

export interface WorkSourceParts {
  documents: DocumentService;
  assistants: AssistantService;
  conversations: ConversationService;
  flows: FlowService;
  files: FileService;
  searches: SearchService;
}

/** Every kind my space lists, in the order of its filter: one line per kind. */
export function workSources(parts: WorkSourceParts): WorkSource[] {
  return [
    knowledgeBaseWorks(parts.documents),
    assistantWorks(parts.assistants, parts.conversations),
    flowWorks(parts.flows),
    fileWorks(parts.files),
    searchWorks(parts.searches),
  ];
}
