import fs from "node:fs";
import path from "node:path";
import { LANGUAGES, LOCALES_DIR } from "../../../platform/messages";
import { messageKeysOf, specProblems, withDefaults } from "../../../platform/param-spec";
import { componentText } from "../../component";
import { LLM_COMPONENTS } from "./index";

/** The model and knowledge components describe themselves soundly: RAGFlow's names and defaults, and texts in every language. */

type Messages = { [key: string]: string | Messages };
const locales = Object.fromEntries(LANGUAGES.map((l) => [l, JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, `${l}.json`), "utf8")) as Messages]));
const lookup = (messages: Messages, key: string) => key.split(".").reduce<string | Messages | undefined>((node, part) => (typeof node === "object" ? node[part] : undefined), messages);

test("are registered under RAGFlow v0.14's component names, with sound parameter specs", () => {
  expect(LLM_COMPONENTS.map((c) => c.name)).toEqual(["Retrieval", "Generate", "Categorize", "Relevant", "RewriteQuestion", "KeywordExtract", "Agent"]);
  for (const component of LLM_COMPONENTS) expect([component.name, specProblems(component.params)]).toEqual([component.name, []]);
});

test("keep RAGFlow v0.14's parameter keys and the defaults of its editor", () => {
  const defaults = (name: string) => withDefaults(LLM_COMPONENTS.find((c) => c.name === name)!.params, {});
  expect(defaults("Retrieval")).toMatchObject({ kb_ids: [], similarity_threshold: 0.2, keywords_similarity_weight: 0.3, top_n: 8, top_k: 1024, rerank_id: "", empty_response: "", query: [] });
  expect(defaults("Generate")).toMatchObject({ llm_id: "", cite: true, message_history_window_size: 12, parameters: [], temperature: 0.1, top_p: 0.3, presence_penalty: 0.4, frequency_penalty: 0.7, max_tokens: 0 });
  expect(defaults("Generate").prompt).toContain("{input}");
  expect(defaults("Categorize")).toMatchObject({ category_description: {}, message_history_window_size: 1 });
  expect(defaults("Relevant")).toMatchObject({ yes: "", no: "" });
  expect(defaults("RewriteQuestion")).toMatchObject({ temperature: 0.9, loop: 1 });
  expect(defaults("KeywordExtract")).toMatchObject({ top_n: 1, query: [] });
  expect(defaults("Agent")).toMatchObject({ tools: [], kb_ids: [], max_rounds: 5 });
});

test("have every text in all five languages", () => {
  const missing: string[] = [];
  for (const component of LLM_COMPONENTS) {
    const keys = [
      componentText.label(component.name),
      componentText.description(component.name),
      ...messageKeysOf(component.params),
      ...(component.outputs ?? []).map((o) => o.label),
      ...(component.routes?.({}) ?? []).filter((r) => !r.literal).map((r) => r.label),
    ];
    for (const locale of LANGUAGES) for (const key of keys) if (typeof lookup(locales[locale], key) !== "string") missing.push(`${locale}: ${key}`);
  }
  expect(missing).toEqual([]);
});

test("connect as RAGFlow's editor lets them: nothing leads back to Begin, Retrieval not to Retrieval, Categorize not to another router or an Answer", () => {
  const restricted = Object.fromEntries(LLM_COMPONENTS.map((c) => [c.name, c.restrictedTargets]));
  expect(restricted).toEqual({
    Retrieval: ["Begin", "Retrieval"],
    Generate: ["Begin"],
    Categorize: ["Begin", "Categorize", "Answer", "Relevant"],
    Relevant: ["Begin"],
    RewriteQuestion: ["Begin"],
    KeywordExtract: ["Begin"],
    Agent: ["Begin"],
  });
});

test("say when they need a model key: only the Agent does", () => {
  expect(LLM_COMPONENTS.filter((c) => c.needs?.includes("apiKey")).map((c) => c.name)).toEqual(["Agent"]);
  for (const component of LLM_COMPONENTS.filter((c) => c.name !== "Retrieval")) {
    expect(lookup(locales.en, componentText.description(component.name))).toMatch(/key/);
  }
});
