import type { FlowTemplate } from "./flow-template";
import { generateParams, retrievalParams, templateDsl } from "./template-graph";

/**
 * Cairn's own: the smallest useful flow, a chat assistant as a flow — Begin → Retrieval → Generate → Answer, the
 * answer citing the passages it rests on. It runs with the built-in models alone (no key, no network), so the
 * prompt is the chat assistant's default one, which the built-in model reads.
 */

export const knowledgeBaseQa: FlowTemplate = {
  id: "knowledge-base-qa",
  title: "flow.templates.knowledge-base-qa.title",
  description: "flow.templates.knowledge-base-qa.description",
  needs: ["knowledgeBase"],
  dsl: templateDsl(
    [
      { id: "begin", name: "Begin", at: [0, 1], params: { prologue: "Hi! Ask me anything about the documents of this knowledge base, and I'll answer with my sources." } },
      { id: "Answer:Interact", name: "Interact", at: [1, 1] },
      { id: "Retrieval:Knowledge", name: "Knowledge base", at: [2, 1], params: retrievalParams({ empty_response: "Sorry! No relevant content was found in the knowledge base!" }) },
      {
        id: "Generate:Answer",
        name: "Answer with citations",
        at: [3, 1],
        params: generateParams(
          'You are an intelligent assistant. Please summarize the content of the knowledge base to answer the question. Please list the data in the knowledge base and answer in detail. When all knowledge base content is irrelevant to the question, your answer must include the sentence "The answer you are looking for is not found in the knowledge base!" Answers need to consider chat history.\n      Here is the knowledge base:\n      {knowledge}\n      The above is the knowledge base.',
          { cite: true, parameters: { knowledge: "Retrieval:Knowledge" } },
        ),
      },
    ],
    [
      ["begin", "Answer:Interact"],
      ["Answer:Interact", "Retrieval:Knowledge"],
      ["Retrieval:Knowledge", "Generate:Answer"],
      ["Generate:Answer", "Answer:Interact"],
    ],
    [{ name: "Setup", at: [1, 2], text: "Choose the knowledge bases to answer from in \"Knowledge base\". Works with the built-in models: no key, no internet." }],
  ),
};
