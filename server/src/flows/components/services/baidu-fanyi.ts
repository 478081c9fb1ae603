import { createHash, randomInt } from "node:crypto";
import { DomainError } from "../../../platform/errors";
import type { ParamSpec } from "../../../platform/param-spec";
import type { ComponentDefinition } from "../../component";
import { DESCRIPTION, INPUT_VARIABLES } from "../../params";
import { callVendor, inputText, malformedAnswer, parseJson, requiredKey, vendorBase, vendorError } from "../outside-service";
import {vendorFailure } from "./vendor";
import { isPlainObject } from "../../../platform/plain-object";

/**
 * Baidu Fanyi's general and field translation (https://fanyi-api.baidu.com/doc/21, /doc/22): a form POST to
 * /api/trans/vip/translate or /api/trans/vip/fieldtranslate, signed with md5(appid + q + salt + secret key), the
 * domain between salt and key for a field translation. (RAGFlow added an int salt to strings, so every call failed.)
 */

const NAME = "BaiduFanyi";
const API = "https://fanyi-api.baidu.com";

/** Spec §9's translation constants, which are Baidu's own codes. */
const LANGUAGES = ["auto", "zh", "en", "yue", "wyw", "jp", "kor", "fra", "spa", "th", "ara", "ru", "pt", "de", "it", "el", "nl", "pl", "bul", "est", "dan", "fin", "cs", "rom", "slo", "swe", "hu", "cht", "vie"];
const DOMAINS = ["it", "finance", "machinery", "senimed", "novel", "academic", "aerospace", "wiki", "news", "law", "contract"];

/** Baidu's codes as the shared language keys (`flow.languages.*`, ISO 639 where there is one). */
// prettier-ignore
const LANGUAGE_KEYS: Record<string, string> = {
  auto: "auto", zh: "zh", en: "en", yue: "yue", wyw: "lzh", jp: "ja", kor: "ko", fra: "fr", spa: "es", th: "th", ara: "ar", ru: "ru", pt: "pt", de: "de", it: "it", el: "el",
  nl: "nl", pl: "pl", bul: "bg", est: "et", dan: "da", fin: "fi", cs: "cs", rom: "ro", slo: "sl", swe: "sv", hu: "hu", cht: "zh-Hant", vie: "vi",
};

const languageOptions = LANGUAGES.map((value) => ({ value, label: `flow.languages.${LANGUAGE_KEYS[value]}` }));
const param = (key: string) => `flow.components.${NAME}.params.${key}`;
const option = (key: string, value: string) => ({ value, label: `flow.components.${NAME}.options.${key}.${value}` });

const PARAMS: ParamSpec[] = [
  DESCRIPTION,
  INPUT_VARIABLES,
  { key: "appid", type: "string", label: param("appid"), help: `flow.components.${NAME}.help.appid`, default: "" },
  { key: "secret_key", type: "secret", label: param("secret_key"), default: "" },
  { key: "trans_type", type: "select", label: param("trans_type"), options: ["translate", "fieldtranslate"].map((v) => option("trans_type", v)), default: "translate" },
  { key: "domain", type: "select", label: param("domain"), options: DOMAINS.map((v) => option("domain", v)), default: "finance", displayOptions: { show: { trans_type: ["fieldtranslate"] } } },
  { key: "source_lang", type: "select", label: param("source_lang"), options: languageOptions, default: "auto" },
  { key: "target_lang", type: "select", label: param("target_lang"), options: languageOptions, default: "auto" },
];

/** Baidu's error codes (https://fanyi-api.baidu.com/doc/21 "错误码列表") that a user can act on. */
const KNOWN_ERRORS = new Set(["52001", "52002", "52003", "54000", "54001", "54003", "54004", "54005", "58000", "58001", "58002", "90107"]);

function baiduSign(parts: string[]): string {
  return createHash("md5").update(parts.join(""), "utf8").digest("hex");
}

export const baiduFanyi: ComponentDefinition = {
  name: NAME,
  category: "translation",
  icon: "SiBaidu",
  params: PARAMS,
  needs: ["apiKey", "internet"],
  async run(context) {
    const q = inputText(context);
    if (!q) return { content: "" };
    const appid = requiredKey(context, "appid", NAME);
    const secretKey = requiredKey(context, "secret_key", NAME);
    const { source_lang: from, target_lang: to, trans_type: type, domain } = context.params as Record<string, string>;
    // Baidu detects the source language, never the target one (it answers 58001).
    if (to === "auto") throw new DomainError("BAD_REQUEST", `flow.components.${NAME}.errors.targetAuto`);
    const field = type === "fieldtranslate";
    const salt = String(randomInt(32768, 65536));
    const form = new URLSearchParams({ q, from, to, appid, salt, ...(field ? { domain } : {}) });
    form.set("sign", baiduSign(field ? [appid, q, salt, domain, secretKey] : [appid, q, salt, secretKey]));
    const base = vendorBase(context, NAME, API);
    const answer = await callVendor(context, { service: NAME, url: `${base}/api/trans/vip/${field ? "fieldtranslate" : "translate"}`, method: "POST", body: form });
    const body = parseJson(answer.text, NAME);
    if (!isPlainObject(body)) throw malformedAnswer(NAME);
    if (body.error_code !== undefined && String(body.error_code) !== "52000") {
      const code = String(body.error_code);
      if (KNOWN_ERRORS.has(code)) throw vendorFailure(`flow.components.${NAME}.errors.e${code}`, { code });
      throw vendorError(NAME, `${code} ${typeof body.error_msg === "string" ? body.error_msg : ""}`.trim());
    }
    const results = Array.isArray(body.trans_result) ? body.trans_result : null;
    if (!results || !results.every((r) => isPlainObject(r) && typeof r.dst === "string")) throw malformedAnswer(NAME);
    // Baidu translates each line of q on its own and answers one result per line.
    return { content: results.map((r) => (r as { dst: string }).dst).join("\n") };
  },
};
