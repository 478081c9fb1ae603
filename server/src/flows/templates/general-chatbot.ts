import type { FlowTemplate } from "./flow-template";
import { generateParams, modelParams, retrievalParams, templateDsl } from "./template-graph";

/**
 * RAGFlow's "General-purpose chatbot": each message is sorted into weather, finance, medical, other or small talk,
 * and each kind goes its own way (a weather service, market data, a medical knowledge base and PubMed, web search,
 * or just a friendly chat) before the answer.
 */

const FRIEND = "You are Cairn, a warm and cheerful assistant. The person talking to you is a good friend of yours.";

export const generalChatbot: FlowTemplate = {
  id: "general-chatbot",
  title: "flow.templates.general-chatbot.title",
  description: "flow.templates.general-chatbot.description",
  needs: ["apiKey", "internet", "knowledgeBase"],
  dsl: templateDsl(
    [
      { id: "begin", name: "Begin", at: [0, 2], params: { prologue: "Hi friend! How are things going? Ask me about the weather, the markets, your health, anything at all — or just chat." } },
      { id: "Answer:Interact", name: "Interact", at: [1, 2] },
      {
        id: "Categorize:Topic",
        name: "Topic",
        at: [2, 2],
        params: modelParams({
          message_history_window_size: 1,
          category_description: {
            weather: {
              description: "The question is about the weather.",
              examples: "Will it rain tomorrow?\nIs it sunny in Lisbon next week?\nWhat is the average temperature in Berlin this week?",
              to: "Generate:FindCity",
            },
            finance: {
              description: "The question is about finance or the economy: the stock market, share prices, economic news.",
              examples: "Which defence stocks rose more than 5% yesterday?\nWhich stocks show a MACD buy signal?\nWhen is the next interest rate cut?",
              to: "Concentrator:Finance",
            },
            medical: {
              description: "The question is about health, an illness, a symptom or a medicine.",
              examples: "How can I relieve a headache?\nI can't sleep, what should I do?\nDoes coffee help to lose weight?",
              to: "Concentrator:Medical",
            },
            chitchat: {
              description: "Small talk, company, sharing feelings.",
              examples: "What's your name?\nWhat a bad day!\nHow are you today?\nTell me a joke.",
              to: "Generate:Chat",
            },
            other: {
              description: "Any other question, to be searched on the web.",
              examples: "Who wrote The Name of the Rose?\nWhat is the tallest building in Europe?",
              to: "KeywordExtract:SearchKeywords",
            },
          },
        }),
      },
      // weather
      { id: "Generate:FindCity", name: "Find the city", at: [3, 0], params: generateParams("Answer with the name of the city the user asks about the weather of, in English, and nothing else. When the question names no city, answer with the city the conversation mentioned last.", { window: 4 }) },
      { id: "QWeather:Weather", name: "Weather", at: [4, 0], params: { web_apikey: "", location: "{Generate:FindCity}", lang: "en", type: "weather", user_type: "free", time_period: "7d" } },
      { id: "Generate:WeatherReply", name: "Weather reply", at: [5, 0], params: generateParams(`${FRIEND}\n\nTask:\n- Tell your friend the weather from the information below, in the language of their question.\n- If they did not say where they are, ask them.\n\nThe weather information:\n{weather}`, { window: 4, parameters: { weather: "QWeather:Weather" } }) },
      // finance
      { id: "Concentrator:Finance", name: "Finance", at: [3, 1] },
      { id: "WenCai:Market", name: "Market data", at: [4, 0.8], params: { query_type: "stock", top_n: 5 } },
      { id: "KeywordExtract:Stock", name: "Stock keywords", at: [4, 1.6], params: modelParams({ top_n: 2 }) },
      { id: "AkShare:News", name: "Stock news", at: [5, 1.6], params: { top_n: 10 } },
      {
        id: "Generate:FinanceReply",
        name: "Finance reply",
        at: [6, 1],
        params: generateParams(
          "Role: You are a professional financial counselling assistant.\n\nTask: Answer the user's question from the content given by WenCai (market data) and AkShare (news).\n\nNotice:\n- Give no more than 5 news items from AkShare when WenCai gave content.\n- Every item from AkShare comes with its URL.\n- This is information, not investment advice: say so.\n\n## WenCai\n{wencai_input}\n\n## AkShare\n{ak_input}",
          { window: 3, parameters: { wencai_input: "WenCai:Market", ak_input: "AkShare:News" } },
        ),
      },
      // medical
      { id: "Concentrator:Medical", name: "Medical", at: [3, 2.6] },
      { id: "Retrieval:MedicalKnowledge", name: "Medical knowledge base", at: [4, 2.4], params: retrievalParams() },
      { id: "PubMed:Literature", name: "PubMed", at: [4, 3.1], params: { top_n: 5, email: "you@example.com" } },
      {
        id: "Generate:MedicalReply",
        name: "Medical reply",
        at: [6, 2.6],
        params: generateParams(
          "Role: You are a careful medical consulting assistant.\n\nTask: Answer the user's question from the knowledge base and PubMed content below.\n\nRequirements:\n- Link every PubMed article you use to its URL.\n- Be accurate; invent nothing the content does not say.\n- Remind the user that this is no substitute for a doctor.\n\n## Knowledge base\n{kb_input}\n\n## PubMed\n{pm_input}",
          { cite: true, parameters: { kb_input: "Retrieval:MedicalKnowledge", pm_input: "PubMed:Literature" } },
        ),
      },
      // other: web search
      { id: "KeywordExtract:SearchKeywords", name: "Search keywords", at: [3, 3.6], params: modelParams({ top_n: 3 }) },
      { id: "DuckDuckGo:Web", name: "DuckDuckGo", at: [4, 3.9], params: { top_n: 5, channel: "text" } },
      { id: "Wikipedia:Encyclopedia", name: "Wikipedia", at: [4, 4.6], params: { top_n: 3, language: "en" } },
      {
        id: "Generate:WebReply",
        name: "Web reply",
        at: [6, 4],
        params: generateParams(
          `${FRIEND}\n\nTask: Answer the question from the Wikipedia and DuckDuckGo content below.\n\nRequirements:\n- Answer in markdown.\n- Say which source each part comes from and link it to its URL.\n- Make nothing up when nothing below is relevant.\n\n## Wikipedia\n{wikipedia}\n\n## DuckDuckGo\n{duckduckgo}`,
          { parameters: { wikipedia: "Wikipedia:Encyclopedia", duckduckgo: "DuckDuckGo:Web" } },
        ),
      },
      // small talk
      { id: "Generate:Chat", name: "Small talk", at: [3, 5], params: generateParams(`${FRIEND}\n\nTask:\n- Chat with your friend and care about them.\n- Give useful advice when they need it.\n- Tell a joke now and then to cheer them up.`, { temperature: 0.8 }) },
    ],
    [
      ["begin", "Answer:Interact"],
      ["Answer:Interact", "Categorize:Topic"],
      ["Categorize:Topic", "Generate:FindCity"],
      ["Categorize:Topic", "Concentrator:Finance"],
      ["Categorize:Topic", "Concentrator:Medical"],
      ["Categorize:Topic", "Generate:Chat"],
      ["Categorize:Topic", "KeywordExtract:SearchKeywords"],
      ["Generate:FindCity", "QWeather:Weather"],
      ["QWeather:Weather", "Generate:WeatherReply"],
      ["Concentrator:Finance", "WenCai:Market"],
      ["Concentrator:Finance", "KeywordExtract:Stock"],
      ["KeywordExtract:Stock", "AkShare:News"],
      ["WenCai:Market", "Generate:FinanceReply"],
      ["AkShare:News", "Generate:FinanceReply"],
      ["Concentrator:Medical", "Retrieval:MedicalKnowledge"],
      ["Concentrator:Medical", "PubMed:Literature"],
      ["Retrieval:MedicalKnowledge", "Generate:MedicalReply"],
      ["PubMed:Literature", "Generate:MedicalReply"],
      ["KeywordExtract:SearchKeywords", "DuckDuckGo:Web"],
      ["KeywordExtract:SearchKeywords", "Wikipedia:Encyclopedia"],
      ["DuckDuckGo:Web", "Generate:WebReply"],
      ["Wikipedia:Encyclopedia", "Generate:WebReply"],
      ["Generate:WeatherReply", "Answer:Interact"],
      ["Generate:FinanceReply", "Answer:Interact"],
      ["Generate:MedicalReply", "Answer:Interact"],
      ["Generate:WebReply", "Answer:Interact"],
      ["Generate:Chat", "Answer:Interact"],
    ],
    [
      {
        name: "Setup",
        at: [0, 3.4],
        text: "Weather needs a QWeather key (\"Weather\"). Market data (WenCai, AkShare) covers China's markets. Choose a medical knowledge base in \"Medical knowledge base\" and put your e-mail in \"PubMed\" (NCBI asks for one).",
      },
    ],
  ),
};
