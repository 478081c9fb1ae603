import { keyTerms } from "../../../chat/answer/question";
import type { ComponentDefinition } from "../../component";
import { DESCRIPTION, INPUT_VARIABLES, modelParams, topN } from "../../params";
import { askModel, chatModelOf, generationOptions, inputText } from "./model-call";

/**
 * KeywordExtract (RAGFlow v0.14 `agent/component/keyword.py`): a chat model gives the `top_n` most important
 * keywords of the text it reads, comma-separated (for a search component downstream). The built-in
 * extractive model cannot summarise, so for it they are the text's first key terms.
 */

const NAME = "KeywordExtract";

function keywordPrompt(topN: number): string {
  return `- Role: You're a question analyzer.
- Requirements:
  - Summarize user's question, and give top ${topN} important keyword/phrase.
  - Use comma as a delimiter to separate keywords/phrases.
- Answer format: (in language of user's question)
  - keyword: `;
}

export const keywordExtractComponent: ComponentDefinition = {
  name: NAME,
  category: "core",
  restrictedTargets: ["Begin"],
  icon: "LuKey",
  params: [DESCRIPTION, ...modelParams(), topN(1, 30), INPUT_VARIABLES],
  async run(context) {
    const query = inputText(context).trim();
    if (!query) return { content: "" };
    const count = typeof context.params.top_n === "number" ? context.params.top_n : 1;
    const model = await chatModelOf(context);
    let keywords: string[];
    if (model.extractive) keywords = keyTerms(query);
    else {
      const answer = await askModel(context, model, [{ role: "system", content: keywordPrompt(count) }, { role: "user", content: query }], generationOptions(context.params, context.signal));
      keywords = answer
        .replace(/.*keyword:/g, "")
        .split(/[,，、\n]/)
        .map((k) => k.replace(/^[\s\-*]+/, "").trim())
        .filter((k) => k !== "");
    }
    return { content: keywords.slice(0, count).join(", ") };
  },
};
