import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type http from "node:http";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { DomainError } from "../../platform/errors";
import { LANGUAGES, LOCALES_DIR } from "../../platform/messages";
import { messageKeysOf, specProblems } from "../../platform/param-spec";
import { componentText, type ComponentDefinition } from "../component";
import type { FlowPorts } from "../ports";
import { sendJson, startVendorServer, type VendorHandler, type VendorServer } from "../../testing/vendor-servers";
import { testPorts } from "./run-component";

/**
 * What the tests of the data and translation components (and of flows that use them, such as templates) share:
 * local servers that speak each vendor's protocol, ports that send a component to them, a fetch port that only
 * records where a component would go (to check the vendors' real hosts without reaching them), and checks that a
 * failure is a DomainError told in every language.
 */

const texts = new Map(LANGUAGES.map((locale) => [locale, JSON.parse(readFileSync(join(LOCALES_DIR, `${locale}.json`), "utf8")) as Record<string, unknown>]));

function textOf(locale: string, key: string): unknown {
  return key.split(".").reduce<unknown>((node, part) => (typeof node === "object" && node !== null ? (node as Record<string, unknown>)[part] : undefined), texts.get(locale as never));
}

/** The keys among `keys` that some language lacks, with that language. */
export function untranslated(keys: Iterable<string>): string[] {
  return [...keys].flatMap((key) => LANGUAGES.filter((locale) => typeof textOf(locale, key) !== "string" || (textOf(locale, key) as string).trim() === "").map((locale) => `${locale}: ${key}`));
}

/** Everything a component's description names: its texts and its params' labels, help and options. */
export function descriptionProblems(component: ComponentDefinition): string[] {
  const keys = [componentText.label(component.name), componentText.description(component.name), ...messageKeysOf(component.params)];
  return [...specProblems(component.params), ...untranslated(keys)];
}

/** Ports that send `component` to a local server. */
export function portsFor(component: string, url: string): FlowPorts {
  return testPorts({ baseUrls: { [component]: url } });
}

/** Ports whose fetch records the URLs asked for and answers each with `answer()`. */
export function recordingPorts(answer: (url: URL) => Response): { ports: FlowPorts; urls: URL[] } {
  const urls: URL[] = [];
  const ports = testPorts({
    fetch: async (url) => {
      urls.push(new URL(url));
      return answer(new URL(url));
    },
  });
  return { ports, urls };
}

/** The DomainError `promise` rejects with; the test fails when it resolves, fails otherwise, or its text is missing somewhere. */
export async function failureOf(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  const failure = error as DomainError;
  expect(untranslated([failure.messageKey])).toEqual([]);
  return failure;
}

// ------------------------------------------------------------------------------------------------ the fake vendors

/** A key every fake vendor refuses the way the vendor refuses a wrong key; any other key is accepted. */
export const REFUSED_KEY = "wrong-key";
/** Baidu Fanyi's signature needs the secret on both sides, so its fake knows one account. */
export const BAIDU_ACCOUNT = { appid: "20240101000012345", secret_key: "s3cr3tK3y" };

const md5 = (text: string) => createHash("md5").update(text, "utf8").digest("hex");

export function sendText(response: http.ServerResponse, status: number, text: string, headers: http.OutgoingHttpHeaders = {}): void {
  response.writeHead(status, { "content-type": "text/plain", ...headers });
  response.end(text);
}

/** api.deepl.com: POST /v2/translate, JSON, the key in `Authorization: DeepL-Auth-Key …`; answers "[TARGET] text". */
export const deeplFake: VendorHandler = (request, response) => {
  if (request.method !== "POST" || request.path !== "/v2/translate") return sendJson(response, 404, { message: "Not found" });
  const key = /^DeepL-Auth-Key (.+)$/.exec(String(request.headers.authorization ?? ""))?.[1];
  if (!key || key === REFUSED_KEY) return sendJson(response, 403, { message: "Authorization failed" });
  const texts = request.json.text as string[];
  return sendJson(response, 200, { translations: texts.map((text) => ({ detected_source_language: "ZH", text: `[${request.json.target_lang}] ${text}` })) });
};

/** fanyi-api.baidu.com: a signed form; one trans_result per line of q (upper-cased); error_code otherwise, as a string like Baidu's. */
export const baiduFanyiFake: VendorHandler = (request, response) => {
  const form = new URLSearchParams(request.body.toString("utf8"));
  const field = request.path === "/api/trans/vip/fieldtranslate";
  if (!field && request.path !== "/api/trans/vip/translate") return sendJson(response, 404, {});
  const [q, salt, appid, domain] = ["q", "salt", "appid", "domain"].map((name) => form.get(name) ?? "");
  if (appid !== BAIDU_ACCOUNT.appid) return sendJson(response, 200, { error_code: "52003", error_msg: "UNAUTHORIZED USER" });
  const expected = md5(field ? appid + q + salt + domain + BAIDU_ACCOUNT.secret_key : appid + q + salt + BAIDU_ACCOUNT.secret_key);
  if (form.get("sign") !== expected) return sendJson(response, 200, { error_code: "54001", error_msg: "Invalid Sign" });
  if (form.get("to") === "kor" && form.get("from") === "wyw") return sendJson(response, 200, { error_code: "58001", error_msg: "INVALID_TO_PARAM" });
  const prefix = field ? `${domain}:` : "";
  return sendJson(response, 200, { from: form.get("from"), to: form.get("to"), trans_result: q.split("\n").map((line) => ({ src: line, dst: `${prefix}${line.toUpperCase()}` })) });
};

export const SHANGHAI = { name: "上海", id: "101020100", lat: "31.23171", lon: "121.47264", adm2: "上海", adm1: "上海市", country: "中国", tz: "Asia/Shanghai" };

/** QWeather answers gzip-compressed JSON whatever the client asks, with its status in `code`. */
export function sendQWeather(response: http.ServerResponse, body: unknown, status = 200): void {
  response.writeHead(status, { "content-type": "application/json", "content-encoding": "gzip" });
  response.end(gzipSync(JSON.stringify(body)));
}

/** geoapi.qweather.com/v2/city/lookup (every city is Shanghai, "atlantis" is unknown) and (dev)api.qweather.com/v7/…, the key in `key`. */
export const qweatherFake: VendorHandler = (request, response) => {
  const q = request.query;
  if (!q.get("key") || q.get("key") === REFUSED_KEY) return sendQWeather(response, { code: "401" });
  if (request.path === "/v2/city/lookup") {
    if (q.get("location") === "atlantis") return sendQWeather(response, { code: "404" });
    return sendQWeather(response, { code: "200", location: [SHANGHAI], refer: { sources: ["QWeather"], license: ["QWeather Developers License"] } });
  }
  if (q.get("location") !== SHANGHAI.id) return sendQWeather(response, { code: "400" });
  if (request.path === "/v7/weather/now")
    return sendQWeather(response, { code: "200", updateTime: "2024-06-01T10:00+08:00", now: { obsTime: "2024-06-01T09:50+08:00", temp: "26", feelsLike: "28", text: q.get("lang") === "en" ? "Sunny" : "晴", windDir: "东南风", humidity: "65" } });
  const days = /^\/v7\/weather\/(\d+)d$/.exec(request.path);
  if (days) {
    const daily = Array.from({ length: Number(days[1]) }, (_, i) => ({ fxDate: `2024-06-${String(i + 1).padStart(2, "0")}`, tempMax: String(28 + i), tempMin: "20", textDay: "多云" }));
    return sendQWeather(response, { code: "200", daily });
  }
  if (request.path === "/v7/indices/1d")
    return sendQWeather(response, {
      code: "200",
      daily: [
        { date: "2024-06-01", type: "1", name: "运动指数", level: "2", category: "较适宜", text: "天气较好，适宜户外运动。" },
        { date: "2024-06-01", type: "3", name: "穿衣指数", level: "6", category: "热", text: "建议穿短衫、短裤。" },
      ],
    });
  if (request.path === "/v7/air/now") return sendQWeather(response, { code: "200", now: { pubTime: "2024-06-01T10:00+08:00", aqi: "46", level: "1", category: "优", primary: "NA", pm2p5: "22" } });
  return sendQWeather(response, { code: "404" });
};

export const WENCAI_CONDITION = '[{"indexName":"涨跌幅:前复权","opName":">","opValue":"5"}]';

/**
 * iwencai.com as pywencai sees it: a question about 涨幅 (rises) is a stock-picking table whose rows come from
 * getDataList; any other question answers a text block and a table.
 */
export const wencaiFake: VendorHandler = (request, response) => {
  if (request.path === "/customized/chart/get-robot-data") {
    const body = request.json;
    if (!String(request.headers["user-agent"]).startsWith("Mozilla/5.0")) return sendJson(response, 403, {});
    if (body.source !== "Ths_iwencai_Xuangu" || body.version !== "2.0" || typeof body.add_info !== "string") return sendJson(response, 200, { status_code: -1, status_msg: "bad request" });
    if (String(body.question).includes("涨幅")) {
      const picking = { show_type: "xuangu_tableV1", cid: 7, puuid: 42, data: { meta: { extra: { condition: WENCAI_CONDITION, row_count: 2 } }, datas: [] } };
      // The answer's content is sometimes a JSON string, which pywencai parses again.
      return sendJson(response, 200, { status_code: 0, data: { answer: [{ txt: [{ content: JSON.stringify({ components: [picking] }) }] }] } });
    }
    const blocks = [
      { show_type: "txt1", title_config: { data: { h1: "贵州茅台" } }, data: { content: `${body.secondary_intent}: 贵州茅台今日收涨 1.2%` } },
      { show_type: "table1", config: { title: "财务指标" }, data: { datas: [{ 指标: "市盈率", 数值: "28.5" }] } },
    ];
    return sendJson(response, 200, { status_code: 0, data: { answer: [{ txt: [{ content: { components: blocks } }] }] } });
  }
  if (request.path === "/gateway/urp/v7/landing/getDataList") {
    const form = new URLSearchParams(request.body.toString("utf8"));
    if (form.get("condition") !== WENCAI_CONDITION || form.get("comp_id") !== "7" || form.get("uuid") !== "42") return sendJson(response, 200, { status_code: -1, status_msg: "condition lost" });
    const rows = [
      { 股票代码: "600519.SH", 股票简称: "贵州茅台", "涨跌幅:前复权": "6.1" },
      { 股票代码: "000858.SZ", 股票简称: "五粮液", "涨跌幅:前复权": "5.4" },
    ].slice(0, Number(form.get("perpage")));
    return sendJson(response, 200, { answer: { components: [{ data: { datas: rows } }] } });
  }
  return sendJson(response, 404, {});
};

/** Eastmoney's news search (AkShare's stock_news_em): JSONP, twelve articles about the keyword at most. */
export const akshareFake: VendorHandler = (request, response) => {
  if (request.path !== "/search/jsonp") return sendText(response, 404, "");
  const callback = request.query.get("cb") ?? "";
  const search = JSON.parse(request.query.get("param") ?? "{}");
  const size = search.param.cmsArticleWebOld.pageSize as number;
  const articles = Array.from({ length: 12 }, (_, i) => ({
    date: `2024-06-0${(i % 9) + 1} 09:30:00`,
    title: `<em>${search.keyword}</em> 新闻 ${i + 1}`,
    content: `正文\u3000${i + 1}\r\n`,
    mediaName: "证券时报",
    code: `20240601${String(i).padStart(4, "0")}`,
  })).slice(0, size);
  sendText(response, 200, `${callback}(${JSON.stringify({ code: 0, msg: "成功", result: { cmsArticleWebOld: articles } })})`, { "content-type": "application/javascript" });
};

export const YAHOO_CRUMB = "Xy9/AbCdEfG";

/** fc.yahoo.com's cookie, the crumb for it, quoteSummary (AAPL only), chart and search, as Yahoo answers them. */
export const yahooFinanceFake: VendorHandler = (request, response) => {
  const cookie = String(request.headers.cookie ?? "");
  if (request.path === "/") return sendText(response, 404, "Not Found", { "set-cookie": ["A3=d=AQABBOx; Expires=Wed, 1 Jan 2031 00:00:00 GMT; Domain=.yahoo.com; Path=/; Secure", "A1S=d=AQABBOx&j=WORLD; Domain=.yahoo.com; Path=/"] });
  if (request.path === "/v1/test/getcrumb") return cookie.includes("A3=d=AQABBOx") ? sendText(response, 200, YAHOO_CRUMB) : sendJson(response, 401, { finance: { result: null, error: { code: "Unauthorized", description: "Invalid Cookie" } } });
  const summary = /^\/v10\/finance\/quoteSummary\/([^/]+)$/.exec(request.path);
  if (summary) {
    if (request.query.get("crumb") !== YAHOO_CRUMB || !cookie.includes("A3=")) return sendJson(response, 401, { finance: { result: null, error: { code: "Unauthorized", description: "Invalid Crumb" } } });
    if (summary[1] !== "AAPL") return sendJson(response, 404, { quoteSummary: { result: null, error: { code: "Not Found", description: `Quote not found for symbol: ${summary[1]}` } } });
    const modules = (request.query.get("modules") ?? "").split(",");
    const all: Record<string, unknown> = {
      assetProfile: { sector: "Technology", industry: "Consumer Electronics", maxAge: 86400 },
      price: { longName: "Apple Inc.", regularMarketPrice: { raw: 189.98, fmt: "189.98" }, currency: "USD" },
      summaryDetail: { marketCap: { raw: 2.9e12, fmt: "2.9T", longFmt: "2,900,000,000,000" } },
      financialData: { totalRevenue: { raw: 3.8e11, fmt: "380B" } },
      incomeStatementHistory: { incomeStatementHistory: [{ endDate: { raw: 1696032000, fmt: "2023-09-30" }, totalRevenue: { raw: 383285000000, fmt: "383.29B" }, maxAge: 1 }], maxAge: 86400 },
      incomeStatementHistoryQuarterly: { incomeStatementHistory: [{ endDate: { fmt: "2024-03-31" }, totalRevenue: { fmt: "90.75B" } }] },
    };
    return sendJson(response, 200, { quoteSummary: { result: [Object.fromEntries(modules.filter((m) => m in all).map((m) => [m, all[m]]))], error: null } });
  }
  if (request.path === "/v8/finance/chart/AAPL") {
    return sendJson(response, 200, { chart: { result: [{ meta: { symbol: "AAPL" }, timestamp: [1717075800, 1717162200], indicators: { quote: [{ open: [190.76, 191.44], high: [192.18, 192.57], low: [190.63, 189.91], close: [191.289, 192.25], volume: [49889100, 75158300] }] } }], error: null } });
  }
  if (request.path === "/v1/finance/search") {
    return sendJson(response, 200, { count: 1, quotes: [], news: [{ uuid: "u1", title: "Apple unveils", publisher: "Reuters", link: "https://finance.yahoo.com/news/apple-1.html", providerPublishTime: 1717160000, type: "STORY" }] });
  }
  return sendJson(response, 404, { finance: { result: null, error: { code: "Not Found", description: "HTTP 404 Not Found" } } });
};

/** Jin10's data API: `{status, message, data}`, the key in a `secret-key` header. */
export const jin10Fake: VendorHandler = (request, response) => {
  const key = request.headers["secret-key"];
  if (!key || key === REFUSED_KEY) return sendJson(response, 200, { status: 401, message: "secret-key错误", data: null });
  const q = request.query;
  const ok = (data: unknown) => sendJson(response, 200, { status: 200, message: "OK", data });
  if (request.path === "/data-api/flash") {
    const flashes = [
      { id: "1", time: "2024-06-01 10:00:00", type: 0, data: { content: `<b>类别${q.get("category")}</b>：美联储维持利率不变` } },
      { id: "2", time: "2024-06-01 10:05:00", type: 0, data: { content: "现货黄金<br/>日内涨 1%" } },
    ];
    return ok(flashes.filter((f) => !q.get("contain") || f.data.content.includes(q.get("contain") ?? "")));
  }
  if (request.path === "/data-api/calendar/data") return ok([{ pub_time: "2024-06-07 20:30", country: "美国", name: `非农就业(${q.get("category")})`, actual: "27.2", consensus: "18.5", previous: "17.5" }]);
  if (request.path === "/data-api/symbols") return ok([{ c: "XAUUSD", e: "FOREX", n: "现货黄金", t: q.get("type") }]);
  if (request.path === "/data-api/quotes") return ok((q.get("codes") ?? "").split(",").map((c) => ({ a: 1, b: 2, c, e: "FX", h: 3, hc: 4, l: 5, o: 6, p: 7, t: "2024-06-01 10:00:00" })));
  if (request.path === "/data-api/news") return ok([{ id: 9, title: "周度前瞻", introduction: "下周重磅数据", time: "2024-06-01 08:00:00", url: "https://xnews.jin10.com/details/9" }]);
  return sendJson(response, 404, { status: 404, message: "Not Found" });
};

/** api.tushare.pro: one JSON POST; the news API answers two flashes, in the fields asked for. */
export const tushareFake: VendorHandler = (request, response) => {
  const body = request.json;
  if (request.method !== "POST" || request.path !== "/") return sendJson(response, 404, {});
  if (!body?.token || body.token === REFUSED_KEY) return sendJson(response, 200, { request_id: "r1", code: 40101, msg: "抱歉，您的token不对，请确认。", data: null });
  if (body.api_name !== "news") return sendJson(response, 200, { request_id: "r2", code: 40203, msg: "接口名不存在", data: null });
  const fields = String(body.fields).split(",");
  const rows = [
    { datetime: "2024-06-01 09:31:00", title: "", content: "央行开展逆回购操作", channels: "" },
    { datetime: "2024-06-01 09:45:00", title: "茅台", content: "贵州茅台股价上涨", channels: "A股" },
  ];
  return sendJson(response, 200, { request_id: "r3", code: 0, msg: "", data: { fields, items: rows.map((row) => fields.map((f) => row[f as keyof typeof row])), has_more: false } });
};

/** Each data and translation component's fake vendor, by component name. */
export const SERVICES_FAKES: Readonly<Record<string, VendorHandler>> = {
  DeepL: deeplFake,
  BaiduFanyi: baiduFanyiFake,
  QWeather: qweatherFake,
  WenCai: wencaiFake,
  AkShare: akshareFake,
  YahooFinance: yahooFinanceFake,
  Jin10: jin10Fake,
  TuShare: tushareFake,
};

export interface FakeVendors {
  servers: Record<string, VendorServer>;
  /** For `testPorts({ baseUrls })`. */
  baseUrls: Record<string, string>;
  /** Puts every server back on its fake after a test swapped one for an error case. */
  reset(): void;
  close(): Promise<void>;
}

/** Local servers for the named components' vendors (all of them by default), each speaking its vendor's protocol. */
export async function startFakeVendors(names: readonly string[] = Object.keys(SERVICES_FAKES)): Promise<FakeVendors> {
  const servers: Record<string, VendorServer> = {};
  for (const name of names) servers[name] = await startVendorServer(SERVICES_FAKES[name]);
  return {
    servers,
    baseUrls: Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, server.url])),
    reset: () => {
      for (const [name, server] of Object.entries(servers)) server.handle(SERVICES_FAKES[name]);
    },
    close: async () => {
      await Promise.all(Object.values(servers).map((server) => server.close()));
    },
  };
}

