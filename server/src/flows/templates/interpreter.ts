import type { FlowTemplate } from "./flow-template";
import { generateParams, templateDsl } from "./template-graph";

/**
 * RAGFlow's "Interpreter", a reflection workflow after Andrew Ng's translation-agent
 * (https://github.com/andrewyng/translation-agent): translate, have the model criticise its translation, then
 * improve it with that criticism. It runs once on Begin's inputs (a task, not a conversation).
 */

export const interpreter: FlowTemplate = {
  id: "interpreter",
  title: "flow.templates.interpreter.title",
  description: "flow.templates.interpreter.description",
  needs: [],
  dsl: templateDsl(
    [
      {
        id: "begin",
        name: "Begin",
        at: [0, 1],
        params: {
          prologue: "",
          query: [
            { key: "lang", name: "Target language", type: "line", optional: false, value: "" },
            { key: "file", name: "Text to translate", type: "file", optional: false, value: "" },
          ],
        },
      },
      {
        id: "Generate:Translate",
        name: "Translate",
        at: [1, 1],
        params: generateParams(
          "Role: You are a professional translator fluent in {lang}, with a gift for turning specialised writing into clear, readable prose. Translate the text below into {lang}, in a style that reads naturally in {lang}.\n\nRequirements:\n- Use markdown.\n- Leave out no detail.\n\n<SOURCE_TEXT>\n{file}\n</SOURCE_TEXT>",
          { window: 0, max_tokens: 4096, parameters: { lang: "begin@lang", file: "begin@file" } },
        ),
      },
      {
        id: "Generate:Reflect",
        name: "Reflect",
        at: [2, 1],
        params: generateParams(
          "Your task is to read a source text and its translation into {target_lang} carefully, then give constructive criticism and helpful suggestions to improve the translation.\n\n<SOURCE_TEXT>\n{source_text}\n</SOURCE_TEXT>\n\n<TRANSLATION>\n{translation_1}\n</TRANSLATION>\n\nWhen writing suggestions, look for ways to improve the translation's\n(i) accuracy (errors of addition, mistranslation, omission or untranslated text),\n(ii) fluency ({target_lang} grammar, spelling and punctuation, and no needless repetition),\n(iii) style (the style of the source text, and its cultural context),\n(iv) terminology (consistent terms that fit the domain, and equivalent idioms in {target_lang}).\n\nWrite a list of specific, helpful and constructive suggestions, each about one part of the translation. Output only the suggestions.",
          { window: 0, max_tokens: 2048, parameters: { target_lang: "begin@lang", source_text: "begin@file", translation_1: "Generate:Translate" } },
        ),
      },
      {
        id: "Generate:Improve",
        name: "Improve",
        at: [3, 1],
        params: generateParams(
          "Your task is to edit a translation into {target_lang}, taking into account a list of expert suggestions and criticisms.\n\n<SOURCE_TEXT>\n{source_text}\n</SOURCE_TEXT>\n\n<TRANSLATION>\n{translation_1}\n</TRANSLATION>\n\n<EXPERT_SUGGESTIONS>\n{reflection}\n</EXPERT_SUGGESTIONS>\n\nEdit the translation so that it is right in\n(i) accuracy (correct errors of addition, mistranslation, omission or untranslated text),\n(ii) fluency ({target_lang} grammar, spelling and punctuation, no needless repetition),\n(iii) style (the style of the source text),\n(iv) terminology (fitting the context, used consistently),\n(v) anything else.\n\nOutput only the new translation and nothing else.",
          { window: 0, max_tokens: 4096, parameters: { target_lang: "begin@lang", source_text: "begin@file", translation_1: "Generate:Translate", reflection: "Generate:Reflect" } },
        ),
      },
      { id: "Answer:Result", name: "Translation", at: [4, 1] },
    ],
    [
      ["begin", "Generate:Translate"],
      ["Generate:Translate", "Generate:Reflect"],
      ["Generate:Reflect", "Generate:Improve"],
      ["Generate:Improve", "Answer:Result"],
    ],
    [{ name: "How it works", at: [1, 0], text: "1. Translate the text into the target language.\n2. Reflect: list what could be better in the translation.\n3. Improve the translation with those suggestions.\nGive the target language and the text (or a file) when you run it." }],
  ),
};
