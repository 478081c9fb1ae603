import type { FlowTemplate } from "./flow-template";
import { generateParams, templateDsl } from "./template-graph";

/**
 * Cairn's own: a digest of recent research on a topic, from arXiv's newest preprints and PubMed's articles, written
 * by a model that links every paper it mentions. It runs once on Begin's topic; the search services need internet
 * access but no key, and the built-in models suffice.
 */

export const researchDigest: FlowTemplate = {
  id: "research-digest",
  title: "flow.templates.research-digest.title",
  description: "flow.templates.research-digest.description",
  needs: ["internet"],
  dsl: templateDsl(
    [
      { id: "begin", name: "Begin", at: [0, 1], params: { prologue: "", query: [{ key: "topic", name: "Topic", type: "line", optional: false, value: "" }] } },
      { id: "ArXiv:Preprints", name: "arXiv", at: [1, 0.4], params: { top_n: 6, sort_by: "submittedDate", query: [{ type: "reference", component_id: "begin@topic" }] } },
      { id: "PubMed:Articles", name: "PubMed", at: [1, 1.6], params: { top_n: 5, email: "you@example.com", query: [{ type: "reference", component_id: "begin@topic" }] } },
      {
        id: "Generate:Digest",
        name: "Digest",
        at: [2, 1],
        params: generateParams(
          "Write a research digest on \"{topic}\" from the papers below: arXiv's newest preprints and PubMed's articles.\n\n- Open with two or three sentences on where the research stands.\n- Then one bullet per paper worth reading: what it found, in a sentence, with its title linked to its URL.\n- Group the papers by theme when there are several; leave out those unrelated to the topic.\n- Use only what the papers say.\n\n<documents>\n## arXiv\n{arxiv}\n\n## PubMed\n{pubmed}\n</documents>\n\nQuestion: What is new in research on {topic}?",
          { window: 0, max_tokens: 2048, parameters: { topic: "begin@topic", arxiv: "ArXiv:Preprints", pubmed: "PubMed:Articles" } },
        ),
      },
      { id: "Answer:Result", name: "Show the digest", at: [3, 1] },
    ],
    [
      ["begin", "ArXiv:Preprints"],
      ["begin", "PubMed:Articles"],
      ["ArXiv:Preprints", "Generate:Digest"],
      ["PubMed:Articles", "Generate:Digest"],
      ["Generate:Digest", "Answer:Result"],
    ],
    [{ name: "Setup", at: [1, 2.5], text: "Put your e-mail in \"PubMed\" (NCBI asks for one). arXiv and PubMed need internet access and no key." }],
  ),
};
