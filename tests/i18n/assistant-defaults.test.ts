import { defaultTexts } from "../../server/src/chat/prompt-defaults";
import { inLanguage, newDraft } from "../../client/src/pages/chat/assistant/assistantDraft";
import type { AssistantFormChoicesQuery } from "../../client/src/graphql/gql/graphql";

/** The assistant dialog: a new assistant starts in its creator's language, and its untouched texts follow the language chosen. */

const choices = {
  assistantDefaults: { language: "Chinese", texts: ["English", "Chinese", "Spanish"].map((language) => ({ language, ...defaultTexts(language) })), freedomPresets: [] },
  defaultModels: { chat: "" },
} as unknown as AssistantFormChoicesQuery;

test("a new assistant of a Chinese user starts with the Chinese texts", () => {
  const draft = newDraft(choices);
  expect(draft).toMatchObject({ language: "Chinese", opener: "你好！我是你的助理，有什么可以帮到你的吗？", emptyResponse: "抱歉！知识库中未找到相关内容！" });
  expect(draft.systemPrompt).toContain("知识库中未找到您要的答案！");
});

test("choosing another language replaces the texts still at their defaults and keeps the edited ones", () => {
  const edited = { ...newDraft(choices), opener: "欢迎来到港务办公室！" };
  const spanish = inLanguage(edited, "Spanish", choices);
  expect(spanish).toMatchObject({ language: "Spanish", opener: "欢迎来到港务办公室！", emptyResponse: defaultTexts("Spanish").emptyResponse, systemPrompt: defaultTexts("Spanish").systemPrompt });
});
