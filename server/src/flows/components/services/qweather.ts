import type { ParamIssue, ParamSpec } from "../../../platform/param-spec";
import type { ComponentContext, ComponentDefinition, ComponentOutput } from "../../component";
import { DESCRIPTION, INPUT_VARIABLES } from "../../params";
import { answerJson, fetchOutside, malformedAnswer, requiredKey, statusError, vendorBase } from "../outside-service";
import {keyValueLines, vendorFailure } from "./vendor";
import { isPlainObject } from "../../../platform/plain-object";

/**
 * QWeather's Web API (https://dev.qweather.com/docs/api/): the city is looked up with the GeoAPI
 * (geoapi.qweather.com/v2/city/lookup), then its weather, life indices or air quality is read from devapi.qweather.com
 * (free subscriptions) or api.qweather.com (paid), the key in the `key` parameter. Answers carry a `code`
 * ("200" is success) and come gzip-compressed. A local server standing in for QWeather serves all three paths.
 */

const NAME = "QWeather";
const GEO_API = "https://geoapi.qweather.com";
const FREE_API = "https://devapi.qweather.com";
const PAID_API = "https://api.qweather.com";

/** The language codes RAGFlow v0.14 offers (QWeather's own). */
const LANGUAGES = ["zh", "zh-hant", "en", "de", "es", "fr", "it", "ja", "ko", "ru", "hi", "th", "ar", "pt", "bn", "ms", "nl", "el", "la", "sv", "id", "pl", "tr", "cs", "et", "vi", "fil", "fi", "he", "is", "nb"];
const TYPES = ["weather", "indices", "airquality"];
const USER_TYPES = ["free", "paid"];
const PERIODS = ["now", "3d", "7d", "10d", "15d", "30d"];
/** A free subscription reads the current weather and 3- and 7-day forecasts only (RAGFlow's form offers no more). */
const FREE_PERIODS = ["now", "3d", "7d"];

const param = (key: string) => `flow.components.${NAME}.params.${key}`;
const option = (key: string, value: string) => ({ value, label: `flow.components.${NAME}.options.${key}.${value}` });
const languageKey = (code: string) => (code === "zh-hant" ? "zh-Hant" : code);

function checkPeriod(value: unknown, siblings: Record<string, unknown>): ParamIssue[] {
  const free = (siblings.user_type ?? "free") === "free" && (siblings.type ?? "weather") === "weather";
  return free && typeof value === "string" && !FREE_PERIODS.includes(value) ? [{ code: "option", messageKey: `flow.components.${NAME}.errors.periodNeedsPaid` }] : [];
}

const PARAMS: ParamSpec[] = [
  DESCRIPTION,
  INPUT_VARIABLES,
  { key: "web_apikey", type: "secret", label: param("web_apikey"), help: `flow.components.${NAME}.help.web_apikey`, default: "" },
  { key: "location", type: "string", label: param("location"), help: `flow.components.${NAME}.help.location`, default: "shanghai" },
  { key: "lang", type: "select", label: param("lang"), options: LANGUAGES.map((value) => ({ value, label: `flow.languages.${languageKey(value)}` })), default: "zh" },
  { key: "type", type: "select", label: param("type"), options: TYPES.map((v) => option("type", v)), default: "weather" },
  { key: "user_type", type: "select", label: param("user_type"), options: USER_TYPES.map((v) => option("user_type", v)), default: "free" },
  {
    key: "time_period",
    type: "select",
    label: param("time_period"),
    options: PERIODS.map((v) => option("time_period", v)),
    default: "now",
    displayOptions: { show: { type: ["weather"] } },
    check: checkPeriod,
  },
];

/** QWeather's status codes (https://dev.qweather.com/docs/resource/status-code/), each with its own message. */
const KNOWN_CODES = new Set(["204", "400", "401", "402", "403", "404", "429", "500"]);

/** QWeather's v7 answers hold `code`; its newer error format is `{error: {status, title, detail}}` with an HTTP status. */
async function qweather(context: ComponentContext, url: URL): Promise<Record<string, unknown>> {
  const answer = await fetchOutside(context, { service: NAME, url: url.href, headers: { accept: "application/json", "accept-encoding": "gzip" } });
  const body: unknown = answerJson(answer, NAME);
  if (!isPlainObject(body)) throw malformedAnswer(NAME);
  const code = body.code !== undefined ? String(body.code) : isPlainObject(body.error) && body.error.status !== undefined ? String(body.error.status) : answer.status === 200 ? "200" : String(answer.status);
  if (code === "200") return body;
  if (KNOWN_CODES.has(code)) throw vendorFailure(`flow.components.${NAME}.errors.code${code}`, { code });
  throw statusError(NAME, Number(code) || answer.status, isPlainObject(body.error) ? String(body.error.detail ?? body.error.title ?? "") : "");
}

function withQuery(base: string, path: string, query: Record<string, string>): URL {
  const url = new URL(`${base}${path}`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url;
}

const records = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isPlainObject) : []);

export const qWeather: ComponentDefinition = {
  name: NAME,
  category: "data",
  icon: "LuCloudSun",
  params: PARAMS,
  needs: ["apiKey", "internet"],
  async run(context): Promise<ComponentOutput> {
    const key = requiredKey(context, "web_apikey", NAME);
    // The city may come from another component or a Begin input (`{begin@city}`); RAGFlow read a fixed one.
    const location = context.resolve(String(context.params.location ?? "")).trim();
    if (!location) return { content: "" };
    const { lang, type, user_type: userType, time_period: period } = context.params as Record<string, string>;

    const geo = await qweather(context, withQuery(vendorBase(context, NAME, GEO_API), "/v2/city/lookup", { location, key, lang }));
    const city = records(geo.location)[0];
    if (!city || typeof city.id !== "string") throw vendorFailure(`flow.components.${NAME}.errors.code404`, { code: "404" });
    const place = [city.name, city.adm1, city.country].filter((part) => typeof part === "string" && part !== "").join(", ");
    const base = vendorBase(context, NAME, userType === "paid" ? PAID_API : FREE_API);
    const query = { location: city.id, key, lang };

    if (type === "indices") {
      const answer = await qweather(context, withQuery(base, "/v7/indices/1d", { type: "0", ...query }));
      const daily = records(answer.daily);
      const lines = daily.map((index) => `${String(index.name)}: ${String(index.category)}${index.text ? `, ${String(index.text)}` : ""}`);
      return { content: [place, daily[0]?.date, ...lines].filter(Boolean).join("\n") };
    }
    if (type === "airquality") {
      const answer = await qweather(context, withQuery(base, "/v7/air/now", query));
      if (!isPlainObject(answer.now)) throw malformedAnswer(NAME);
      return { content: [place, ...keyValueLines(answer.now)].join("\n") };
    }
    const answer = await qweather(context, withQuery(base, `/v7/weather/${period}`, query));
    if (period === "now") {
      if (!isPlainObject(answer.now)) throw malformedAnswer(NAME);
      return { content: [place, ...keyValueLines(answer.now)].join("\n") };
    }
    const days = records(answer.daily);
    const items = days.map((day) => ({ title: String(day.fxDate ?? ""), content: keyValueLines(day).join("\n") }));
    return { content: [place, ...items.map((item) => item.content)].join("\n\n"), items };
  },
};
