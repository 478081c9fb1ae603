import { describe, expect, test } from "@jest/globals";
import type { AssistantFormChoicesQuery, AssistantSettingsFragment } from "../../../graphql/gql/graphql";
import { CUSTOM_FREEDOM, freedomOf } from "../../../components/freedom";
import { checkDraft, draftOf, inputOf, KNOWLEDGE_VARIABLE, newDraft, tabOfField, type AssistantDraft } from "./assistantDraft";

/** Top K's range as the server declares it (retrievalParams). */
const TOP_K = { min: 1, max: 2048 };

/** The assistant settings dialog's draft: what a new assistant starts with, what the form refuses, and what a save sends. */

const PRESETS = [
  { name: "improvise", temperature: 0.9, topP: 0.9, presencePenalty: 0.2, frequencyPenalty: 0.2 },
  { name: "precise", temperature: 0.2, topP: 0.75, presencePenalty: 0.5, frequencyPenalty: 0.5 },
];

const choices = {
  assistantDefaults: {
    language: "English",
    texts: [{ language: "English", systemPrompt: "Answer from {knowledge}.", opener: "Hi!", emptyResponse: "Nothing found." }],
    freedomPresets: PRESETS,
  },
  defaultModels: { chat: "gpt-4o@OpenAI", tts: "" },
} as unknown as AssistantFormChoicesQuery;

/** A draft that passes every check, to break one rule at a time. */
function validDraft(change: Partial<AssistantDraft> = {}): AssistantDraft {
  return { ...newDraft(choices), name: "Harbour desk", knowledgeBaseIds: ["kb-1"], ...change };
}

describe("a new assistant", () => {
  test("starts with the server's texts, the tenant's chat model and the precise preset", () => {
    expect(newDraft(choices)).toMatchObject({
      language: "English",
      systemPrompt: "Answer from {knowledge}.",
      opener: "Hi!",
      emptyResponse: "Nothing found.",
      chatModel: "gpt-4o@OpenAI",
      freedom: "precise",
      temperature: 0.2,
      topP: 0.75,
      promptVariables: [{ key: KNOWLEDGE_VARIABLE, optional: false }],
    });
  });

  test("still opens before the choices have loaded", () => {
    expect(newDraft(undefined)).toMatchObject({ language: "English", systemPrompt: "", chatModel: "", freedom: "precise" });
  });
});

describe("checking a draft before saving", () => {
  test("a complete draft has no problem", () => {
    expect(checkDraft(validDraft(), TOP_K)).toEqual({});
  });

  test("the name, the system prompt and the chat model are required", () => {
    expect(checkDraft(validDraft({ name: "  ", systemPrompt: " ", chatModel: "" }), TOP_K)).toMatchObject({
      name: { key: "errors.chat.nameRequired" },
      systemPrompt: { key: "errors.chat.systemPromptRequired" },
      chatModel: { key: "errors.chat.modelRequired" },
    });
  });

  test("knowledge bases are required while {knowledge} is a required variable, and not once it is optional", () => {
    expect(checkDraft(validDraft({ knowledgeBaseIds: [] }), TOP_K).knowledgeBaseIds).toEqual({ key: "errors.chat.knowledgeBasesRequired" });
    const optional = validDraft({ knowledgeBaseIds: [], promptVariables: [{ key: KNOWLEDGE_VARIABLE, optional: true }] });
    expect(checkDraft(optional, TOP_K).knowledgeBaseIds).toBeUndefined();
  });

  test("each variable needs a key without braces or spaces, used once and present in the prompt unless optional", () => {
    const draft = validDraft({
      systemPrompt: "Answer from {knowledge} for {city}.",
      promptVariables: [
        { key: KNOWLEDGE_VARIABLE, optional: false },
        { key: "", optional: true },
        { key: "two words", optional: true },
        { key: "city", optional: false },
        { key: "city", optional: true },
        { key: "port", optional: false },
        { key: "tone", optional: true },
      ],
    });
    expect(checkDraft(draft, TOP_K)).toEqual({
      "promptVariables.1": { key: "errors.chat.variableKeyRequired" },
      "promptVariables.2": { key: "errors.chat.variableKeyInvalid", params: { key: "two words" } },
      "promptVariables.4": { key: "errors.chat.variableDuplicate", params: { key: "city" } },
      "promptVariables.5": { key: "errors.chat.variableUnused", params: { key: "port", braced: "{port}" } },
    });
  });

  test("top N, top K and max tokens are whole numbers in range", () => {
    expect(checkDraft(validDraft({ topN: "0", topK: "2049", maxTokens: "1.5" }), TOP_K)).toEqual({
      topN: { key: "errors.chat.between", params: { min: 1, max: 30 } },
      topK: { key: "errors.chat.between", params: { min: 1, max: 2048 } },
      maxTokens: { key: "errors.chat.maxTokensInvalid" },
    });
    expect(checkDraft(validDraft({ topN: "30", topK: "1", maxTokens: "" }), TOP_K)).toEqual({ maxTokens: { key: "chat.settings.maxTokensRequired" } });
  });

  test("a problem on save opens the tab its field is on", () => {
    expect(tabOfField("name")).toBe("assistant");
    expect(tabOfField("promptVariables.3")).toBe("prompt");
    expect(tabOfField("maxTokens")).toBe("model");
    expect(tabOfField("somethingElse")).toBe("assistant");
  });
});

describe("the freedom presets", () => {
  test("four values equal to a preset's are that preset; a value changed by hand is custom", () => {
    expect(freedomOf({ temperature: 0.9, topP: 0.9, presencePenalty: 0.2, frequencyPenalty: 0.2 }, PRESETS)).toBe("improvise");
    expect(freedomOf({ temperature: 0.3, topP: 0.75, presencePenalty: 0.5, frequencyPenalty: 0.5 }, PRESETS)).toBe(CUSTOM_FREEDOM);
  });
});

describe("saving", () => {
  test("a create sends every field, numbers as numbers and the name trimmed", () => {
    const input = inputOf(validDraft({ name: " Harbour desk ", topN: "8", maxTokens: "256", avatar: "" }));
    expect(input).toMatchObject({ name: "Harbour desk", topN: 8, maxTokens: 256, avatar: null, knowledgeBaseIds: ["kb-1"] });
  });

  test("an update sends only what changed", () => {
    const before = validDraft();
    const after = { ...before, opener: "Welcome aboard!", knowledgeBaseIds: ["kb-1", "kb-2"] };
    expect(inputOf(after, before)).toEqual({ opener: "Welcome aboard!", knowledgeBaseIds: ["kb-1", "kb-2"] });
    expect(inputOf(before, before)).toEqual({});
  });

  test("an existing assistant's draft puts {knowledge} first and keeps numbers as typed text", () => {
    const assistant = {
      ...inputOf(validDraft()),
      id: "a-1",
      avatar: null,
      description: null,
      rerankModel: null,
      updatedAt: "2026-01-01T00:00:00Z",
      promptVariables: [{ key: "city", optional: true }, { key: KNOWLEDGE_VARIABLE, optional: false }],
    } as unknown as AssistantSettingsFragment;
    const draft = draftOf(assistant);
    expect(draft.promptVariables.map((variable) => variable.key)).toEqual([KNOWLEDGE_VARIABLE, "city"]);
    expect(draft).toMatchObject({ topN: "6", topK: "1024", maxTokens: "512", avatar: "", rerankModel: "" });
  });
});
