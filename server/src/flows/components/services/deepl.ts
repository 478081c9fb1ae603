import type { ParamSpec } from "../../../platform/param-spec";
import type { ComponentDefinition } from "../../component";
import { DESCRIPTION, INPUT_VARIABLES } from "../../params";
import { callVendor, inputText, malformedAnswer, parseJson, requiredKey, vendorBase } from "../outside-service";
import {vendorFailure } from "./vendor";
import { isPlainObject } from "../../../platform/plain-object";

/**
 * DeepL's API v2 (https://developers.deepl.com/docs/api-reference/translate): POST /v2/translate with the key in
 * `Authorization: DeepL-Auth-Key …`. Keys of the free plan end with ":fx" and are served by api-free.deepl.com.
 * RAGFlow registered this component as "GitHub"; here it is "DeepL", as its flows name it.
 */

const NAME = "DeepL";
const PAID_API = "https://api.deepl.com";
const FREE_API = "https://api-free.deepl.com";

/** RAGFlow v0.14's lists (DeepL's own codes); the labels are shared language names. */
const SOURCE_LANGUAGES = ["AR", "BG", "CS", "DA", "DE", "EL", "EN", "ES", "ET", "FI", "FR", "HU", "ID", "IT", "JA", "KO", "LT", "LV", "NB", "NL", "PL", "PT", "RO", "RU", "SK", "SL", "SV", "TR", "UK", "ZH"];
const TARGET_LANGUAGES = ["AR", "BG", "CS", "DA", "DE", "EL", "EN-GB", "EN-US", "ES", "ET", "FI", "FR", "HU", "ID", "IT", "JA", "KO", "LT", "LV", "NB", "NL", "PL", "PT-BR", "PT-PT", "RO", "RU", "SK", "SL", "SV", "TR", "UK", "ZH"];

/** DeepL's codes as the shared language keys (`flow.languages.*`): lower-case language, upper-case region. */
const languageKey = (code: string) => code.replace(/^[A-Z]+/, (language) => language.toLowerCase());
const languageOptions = (codes: string[]) => codes.map((value) => ({ value, label: `flow.languages.${languageKey(value)}` }));

const param = (key: string) => `flow.components.${NAME}.params.${key}`;

const PARAMS: ParamSpec[] = [
  DESCRIPTION,
  INPUT_VARIABLES,
  { key: "auth_key", type: "secret", label: param("auth_key"), help: `flow.components.${NAME}.help.auth_key`, default: "" },
  { key: "source_lang", type: "select", label: param("source_lang"), options: languageOptions(SOURCE_LANGUAGES), default: "ZH" },
  { key: "target_lang", type: "select", label: param("target_lang"), options: languageOptions(TARGET_LANGUAGES), default: "EN-GB" },
];

/** DeepL's documented statuses that mean something to the user; others are reported with their message. */
const STATUS_ERRORS: Record<number, string> = {
  403: "flow.components.DeepL.errors.forbidden",
  429: "flow.components.DeepL.errors.tooManyRequests",
  456: "flow.components.DeepL.errors.quotaExceeded",
};

export const deepL: ComponentDefinition = {
  name: NAME,
  category: "translation",
  icon: "SiDeepl",
  params: PARAMS,
  needs: ["apiKey", "internet"],
  async run(context) {
    const text = inputText(context);
    if (!text) return { content: "" };
    const key = requiredKey(context, "auth_key", NAME);
    const base = vendorBase(context, NAME, key.endsWith(":fx") ? FREE_API : PAID_API);
    const answer = await callVendor(context, {
      service: NAME,
      url: `${base}/v2/translate`,
      method: "POST",
      headers: { authorization: `DeepL-Auth-Key ${key}`, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ text: [text], source_lang: context.params.source_lang, target_lang: context.params.target_lang }),
      classify: (status) => (STATUS_ERRORS[status] ? vendorFailure(STATUS_ERRORS[status]) : undefined),
    });
    const body = parseJson(answer.text, NAME);
    const translations = isPlainObject(body) && Array.isArray(body.translations) ? body.translations : null;
    if (!translations || translations.length === 0 || !translations.every((t) => isPlainObject(t) && typeof t.text === "string")) throw malformedAnswer(NAME);
    return { content: translations.map((t) => (t as { text: string }).text).join("\n") };
  },
};

