import type { FlowTemplate } from "./flow-template";
import { generateParams, modelParams, retrievalParams, templateDsl } from "./template-graph";

/** RAGFlow's "WebSearch Assistant": the question, made self-contained, is searched in the knowledge base and on the web, and answered with sources. */
export const webSearchAssistant: FlowTemplate = {
  id: "web-search-assistant",
  title: "flow.templates.web-search-assistant.title",
  description: "flow.templates.web-search-assistant.description",
  needs: ["internet"],
  dsl: templateDsl(
    [
      { id: "begin", name: "Begin", at: [0, 1], params: { prologue: "Hi! I search the web and your knowledge base to answer your questions. What would you like to know?" } },
      { id: "Answer:Interact", name: "Interact", at: [1, 1] },
      { id: "RewriteQuestion:Refine", name: "Refine question", at: [2, 1], params: modelParams({ loop: 1 }) },
      { id: "KeywordExtract:Keywords", name: "Search keywords", at: [3, 0.5], params: modelParams({ top_n: 3 }) },
      { id: "Retrieval:Knowledge", name: "Knowledge base", at: [4, 2.2], params: retrievalParams({ empty_response: "" }) },
      { id: "Wikipedia:Encyclopedia", name: "Wikipedia", at: [4, 0], params: { top_n: 3, language: "en" } },
      { id: "DuckDuckGo:Web", name: "DuckDuckGo", at: [4, 1.1], params: { top_n: 5, channel: "text" } },
      {
        id: "Generate:Answer",
        name: "Answer with sources",
        at: [5, 1],
        params: generateParams(
          [
            "Role: You are an intelligent research assistant.",
            "Task: Answer the user's question from the content below, found in the knowledge base, on Wikipedia and on the web (DuckDuckGo).",
            "Requirements:",
            "- Answer in markdown, in the language of the question.",
            "- Use every source that is relevant and say which source each part of the answer comes from.",
            "- Link the content taken from Wikipedia or DuckDuckGo to its URL.",
            "- Do not make things up: when nothing below answers the question, say so.",
            "",
            "## Knowledge base",
            "{kb_input}",
            "",
            "## Wikipedia",
            "{wikipedia}",
            "",
            "## DuckDuckGo",
            "{duckduckgo}",
          ].join("\n"),
          { cite: true, max_tokens: 1024, parameters: { kb_input: "Retrieval:Knowledge", wikipedia: "Wikipedia:Encyclopedia", duckduckgo: "DuckDuckGo:Web" } },
        ),
      },
    ],
    [
      ["begin", "Answer:Interact"],
      ["Answer:Interact", "RewriteQuestion:Refine"],
      ["RewriteQuestion:Refine", "KeywordExtract:Keywords"],
      ["RewriteQuestion:Refine", "Retrieval:Knowledge"],
      ["KeywordExtract:Keywords", "Wikipedia:Encyclopedia"],
      ["KeywordExtract:Keywords", "DuckDuckGo:Web"],
      ["Retrieval:Knowledge", "Generate:Answer"],
      ["Wikipedia:Encyclopedia", "Generate:Answer"],
      ["DuckDuckGo:Web", "Generate:Answer"],
      ["Generate:Answer", "Answer:Interact"],
    ],
    [{ name: "Setup", at: [2, 2.4], text: "Optional: choose knowledge bases in \"Knowledge base\" to search them beside the web. Wikipedia and DuckDuckGo need internet access and no key." }],
  ),
};
