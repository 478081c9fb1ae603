import type { FlowTemplate } from "./flow-template";
import { generateParams, modelParams, templateDsl } from "./template-graph";

/**
 * RAGFlow's "Intelligent investment advisor": market data for the question (iWenCai) and the latest news of the
 * stocks it names (AkShare), summed up by a model. Both services cover China's markets and need no key.
 */

export const investmentAdvisor: FlowTemplate = {
  id: "investment-advisor",
  title: "flow.templates.investment-advisor.title",
  description: "flow.templates.investment-advisor.description",
  needs: ["internet"],
  dsl: templateDsl(
    [
      { id: "begin", name: "Begin", at: [0, 1], params: { prologue: "Hi there! Ask me about China's stock markets — share prices, sectors, companies — and I'll answer from the latest market data and news." } },
      { id: "Answer:Interact", name: "Interact", at: [1, 1] },
      { id: "WenCai:Market", name: "Market data", at: [3, 0.4], params: { query_type: "stock", top_n: 5 } },
      { id: "KeywordExtract:Stocks", name: "Stock names", at: [2, 1.6], params: modelParams({ top_n: 2 }) },
      { id: "AkShare:News", name: "Stock news", at: [3, 1.6], params: { top_n: 10 } },
      {
        id: "Generate:Advice",
        name: "Advice",
        at: [4, 1],
        params: generateParams(
          "Role: You are a professional financial counselling assistant.\n\nTask: Answer the user's question from the content given by WenCai (market data) and AkShare (news).\n\nNotice:\n- Give no more than 5 news items from AkShare when WenCai gave content.\n- Every item from AkShare comes with its URL.\n- Say that this is information, not investment advice.\n\n## WenCai\n{wencai_input}\n\n## AkShare\n{ak_input}",
          { window: 0, parameters: { wencai_input: "WenCai:Market", ak_input: "AkShare:News" } },
        ),
      },
    ],
    [
      ["begin", "Answer:Interact"],
      ["Answer:Interact", "WenCai:Market"],
      ["Answer:Interact", "KeywordExtract:Stocks"],
      ["KeywordExtract:Stocks", "AkShare:News"],
      ["WenCai:Market", "Generate:Advice"],
      ["AkShare:News", "Generate:Advice"],
      ["Generate:Advice", "Answer:Interact"],
    ],
  ),
};
