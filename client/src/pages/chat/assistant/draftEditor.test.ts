import { expect, test } from "@jest/globals";
import type { AssistantFormChoicesQuery } from "../../../graphql/gql/graphql";
import { newDraft } from "./assistantDraft";
import { firstProblemTab, tabsWithProblems, withEdit, withoutProblemsOf } from "./draftEditor";

/** Editing an assistant in the settings dialog: what an edit changes, which problems it clears, which tabs are marked. */

const texts = (language: string) => ({ language, systemPrompt: `${language} prompt {knowledge}`, opener: `${language} hello`, emptyResponse: `${language} nothing` });
const choices = {
  assistantDefaults: { language: "English", texts: [texts("English"), texts("Spanish")], freedomPresets: [] },
  defaultModels: { chat: "", tts: "" },
} as unknown as AssistantFormChoicesQuery;

test("a new assistant's untouched texts follow its language; an existing assistant's stay", () => {
  const draft = { ...newDraft(choices), opener: "Welcome aboard" };
  expect(withEdit(draft, "language", "Spanish", true, choices)).toMatchObject({ language: "Spanish", opener: "Welcome aboard", systemPrompt: "Spanish prompt {knowledge}", emptyResponse: "Spanish nothing" });
  expect(withEdit(draft, "language", "Spanish", false, choices)).toMatchObject({ language: "Spanish", systemPrompt: "English prompt {knowledge}" });
  expect(withEdit(draft, "topN", "8", true, choices).topN).toBe("8");
});

test("editing a field clears its problems and its parts', and only those", () => {
  const problems = { promptVariables: { key: "a" }, "promptVariables.1": { key: "b" }, promptVariablesNote: { key: "c" }, name: { key: "d" } };
  expect(withoutProblemsOf(problems, "promptVariables")).toEqual({ promptVariablesNote: { key: "c" }, name: { key: "d" } });
});

test("the tabs holding a problem are marked, and a failed save opens the first one's", () => {
  const problems = { name: undefined, "promptVariables.0": { key: "errors.chat.variableUnused" }, maxTokens: { key: "errors.chat.maxTokensInvalid" } };
  expect([...tabsWithProblems(problems)]).toEqual(["prompt", "model"]);
  expect(firstProblemTab(problems)).toBe("prompt");
  expect(firstProblemTab({})).toBeUndefined();
});
