import type { AssistantCardFragment, KnowledgeBaseCardFragment } from "../../../graphql/gql/graphql";

/** What a user should do next, from what they have: the first missing piece of knowledge base → documents → chunks → assistant. */
export type NextStep =
  | { kind: "createKnowledgeBase" }
  | { kind: "upload"; knowledgeBase: KnowledgeBaseCardFragment }
  | { kind: "parse"; knowledgeBase: KnowledgeBaseCardFragment }
  | { kind: "tryKnowledge"; knowledgeBase: KnowledgeBaseCardFragment }
  | { kind: "chat" };

/** `knowledgeBases` newest first, as the list query answers them. */
export function nextStep(knowledgeBases: KnowledgeBaseCardFragment[], assistants: AssistantCardFragment[]): NextStep {
  if (knowledgeBases.length === 0) return { kind: "createKnowledgeBase" };
  const parsed = knowledgeBases.find((kb) => kb.chunkCount > 0);
  if (parsed) return assistants.length > 0 ? { kind: "chat" } : { kind: "tryKnowledge", knowledgeBase: parsed };
  const withDocuments = knowledgeBases.find((kb) => kb.documentCount > 0);
  if (withDocuments) return { kind: "parse", knowledgeBase: withDocuments };
  return { kind: "upload", knowledgeBase: knowledgeBases[0] };
}
