import { registerEnumType } from "type-graphql";

/**
 * The kinds of thing a user makes in Cairn. My space lists them as works; the first six can be deleted
 * into the recycle bin (a search is removed from the history outright).
 */
export enum WorkKind {
  knowledgeBase = "knowledgeBase",
  document = "document",
  assistant = "assistant",
  conversation = "conversation",
  flow = "flow",
  file = "file",
  search = "search",
}
registerEnumType(WorkKind, { name: "WorkKind", description: "A kind of thing a user makes: a knowledge base, document, assistant, conversation, flow, file or search." });
