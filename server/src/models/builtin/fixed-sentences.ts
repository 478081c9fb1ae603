/**
 * The few sentences the built-in chat model says of its own, in the five languages of the interface. They
 * live here rather than in locales/*.json because a model answers in the language of the question it is
 * sent — which may come through the REST API or the OpenAI-compatible endpoint, with no user locale — and
 * a model knows nothing of the interface's message files.
 */

export type AnswerLanguage = "en" | "zh" | "zh-TRADITIONAL" | "id" | "es";

export interface FixedSentences {
  /** RAGFlow's "not found" sentence: what the default system prompt asks a model to say when the knowledge holds no answer. */
  notFound: string;
  noKnowledge: string;
  noQuestion: string;
}

export const FIXED_SENTENCES: Readonly<Record<AnswerLanguage, FixedSentences>> = {
  en: {
    notFound: "The answer you are looking for is not found in the knowledge base!",
    noKnowledge:
      "I am Cairn's built-in extractive model, not a language model: I can only answer by quoting the knowledge base, and this conversation has no knowledge attached. Link a knowledge base to this assistant, or choose a chat model from a model provider to converse freely.",
    noQuestion: "I am Cairn's built-in extractive model: I answer questions by quoting the knowledge base. Please ask a question about its content.",
  },
  zh: {
    notFound: "知识库中未找到您要的答案！",
    noKnowledge: "我是 Cairn 内置的抽取式模型，不是大语言模型：我只能摘录知识库中的原文来回答，而当前对话没有关联知识库。请为助手关联知识库，或在模型设置中选择一个对话模型以便自由对话。",
    noQuestion: "我是 Cairn 内置的抽取式模型：我通过摘录知识库原文来回答问题。请提出与知识库内容有关的问题。",
  },
  "zh-TRADITIONAL": {
    notFound: "知識庫中未找到您要的答案！",
    noKnowledge: "我是 Cairn 內建的抽取式模型，不是大型語言模型：我只能摘錄知識庫中的原文來回答，而目前的對話沒有關聯知識庫。請為助理關聯知識庫，或在模型設定中選擇一個對話模型以便自由對話。",
    noQuestion: "我是 Cairn 內建的抽取式模型：我透過摘錄知識庫原文來回答問題。請提出與知識庫內容有關的問題。",
  },
  id: {
    notFound: "Jawaban yang Anda cari tidak ditemukan di basis pengetahuan!",
    noKnowledge:
      "Saya model ekstraktif bawaan Cairn, bukan model bahasa: saya hanya dapat menjawab dengan mengutip basis pengetahuan, dan percakapan ini tidak terhubung ke basis pengetahuan apa pun. Hubungkan basis pengetahuan ke asisten ini, atau pilih model obrolan dari penyedia model untuk bercakap dengan bebas.",
    noQuestion: "Saya model ekstraktif bawaan Cairn: saya menjawab pertanyaan dengan mengutip basis pengetahuan. Silakan ajukan pertanyaan tentang isinya.",
  },
  es: {
    notFound: "¡La respuesta que busca no se encuentra en la base de conocimiento!",
    noKnowledge:
      "Soy el modelo extractivo integrado de Cairn, no un modelo de lenguaje: solo puedo responder citando la base de conocimiento, y esta conversación no tiene ninguna vinculada. Vincule una base de conocimiento a este asistente, o elija un modelo de chat de un proveedor para conversar libremente.",
    noQuestion: "Soy el modelo extractivo integrado de Cairn: respondo preguntas citando la base de conocimiento. Haga una pregunta sobre su contenido.",
  },
};

/** Characters only Traditional Chinese writes (their Simplified forms differ). */
const TRADITIONAL_ONLY = /[這們為麼個說裡與會來時長東學國還無書點價錢買賣開關問題嗎從對應該體樣當讓]/;
/** Spanish question words, written with their accents: an English question has none. */
const SPANISH_QUESTION_WORDS = new Set("qué cómo cuál cuáles cuándo dónde cuánto cuánta cuántos cuántas quién quiénes".split(" "));
/** Indonesian function words that English does not use (no names among them, such as "Dan" or "Ada"). */
const INDONESIAN_WORDS = new Set("apa apakah bagaimana berapa siapa kapan dimana yang untuk saya bisa dari adalah tidak dengan ini itu".split(" "));
/** Indonesian function words a question must hold at least this many of to be read as Indonesian. */
const MARKER_WORDS = 2;

/** The language a question is written in, among the interface's five; English when nothing tells. */
export function languageOf(text: string): AnswerLanguage {
  if (/[\u3400-\u9fff]/.test(text)) return TRADITIONAL_ONLY.test(text) ? "zh-TRADITIONAL" : "zh";
  const words = new Set(text.toLowerCase().match(/[\p{L}]+/gu) ?? []);
  const count = (markers: Set<string>) => [...words].filter((w) => markers.has(w)).length;
  if (/[¿¡]/.test(text) || count(SPANISH_QUESTION_WORDS) > 0) return "es";
  if (count(INDONESIAN_WORDS) >= MARKER_WORDS) return "id";
  return "en";
}

export function fixedSentences(text: string): FixedSentences {
  return FIXED_SENTENCES[languageOf(text)];
}
