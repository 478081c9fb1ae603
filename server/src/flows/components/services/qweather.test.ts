import { gzipSync } from "node:zlib";
import type http from "node:http";
import { validate, withDefaults } from "../../../platform/param-spec";
import { startVendorServer, type RecordedRequest, type VendorServer } from "../../../testing/vendor-servers";
import { runComponent } from "../../testing/run-component";
import { descriptionProblems, failureOf, portsFor, recordingPorts } from "../../testing/services-vendors";
import { qWeather } from "./qweather";

const KEY = "947e8994bc5f488f8857d618ebac1b19";
const SHANGHAI = { name: "上海", id: "101020100", lat: "31.23171", lon: "121.47264", adm2: "上海", adm1: "上海市", country: "中国", tz: "Asia/Shanghai" };

/** QWeather answers gzip-compressed JSON whatever the client asks, with its status in `code`. */
function sendQWeather(response: http.ServerResponse, body: unknown, status = 200) {
  response.writeHead(status, { "content-type": "application/json", "content-encoding": "gzip" });
  response.end(gzipSync(JSON.stringify(body)));
}

/** geoapi.qweather.com/v2/city/lookup and (dev)api.qweather.com/v7/…, the key in `key`. */
function qweatherHandler(request: RecordedRequest, response: http.ServerResponse) {
  const q = request.query;
  if (q.get("key") !== KEY) return sendQWeather(response, { code: "401" });
  if (request.path === "/v2/city/lookup") {
    if (q.get("location") === "atlantis") return sendQWeather(response, { code: "404" });
    return sendQWeather(response, { code: "200", location: [SHANGHAI], refer: { sources: ["QWeather"], license: ["QWeather Developers License"] } });
  }
  if (q.get("location") !== SHANGHAI.id) return sendQWeather(response, { code: "400" });
  if (request.path === "/v7/weather/now")
    return sendQWeather(response, { code: "200", updateTime: "2024-06-01T10:00+08:00", now: { obsTime: "2024-06-01T09:50+08:00", temp: "26", feelsLike: "28", text: q.get("lang") === "en" ? "Sunny" : "晴", windDir: "东南风", humidity: "65" } });
  const days = /^\/v7\/weather\/(\d+)d$/.exec(request.path);
  if (days) {
    const daily = Array.from({ length: Number(days[1]) }, (_, i) => ({ fxDate: `2024-06-0${i + 1}`, tempMax: String(28 + i), tempMin: "20", textDay: "多云" }));
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
}

describe("QWeather", () => {
  let server: VendorServer;
  const run = (params: Record<string, unknown>, variables: Record<string, string> = {}) =>
    runComponent(qWeather, { params: { web_apikey: KEY, ...params }, variables, input: "Will it rain tomorrow?", ports: portsFor("QWeather", server.url) });

  beforeAll(async () => {
    server = await startVendorServer(qweatherHandler);
  });
  afterAll(() => server.close());
  afterEach(() => server.handle(qweatherHandler));

  it("describes itself with valid params, spec §9's choices and texts in every language", () => {
    expect(descriptionProblems(qWeather)).toEqual([]);
    const options = (key: string) => qWeather.params.find((p) => p.key === key)?.options?.map((o) => o.value);
    expect(options("type")).toEqual(["weather", "indices", "airquality"]);
    expect(options("user_type")).toEqual(["free", "paid"]);
    expect(options("time_period")).toEqual(["now", "3d", "7d", "10d", "15d", "30d"]);
    expect(options("lang")).toContain("zh-hant");
  });

  it("looks the city up with the GeoAPI, then reads the weather now for its id (gzip answers included)", async () => {
    const before = server.requests.length;
    const { output } = await run({ lang: "en" });
    const [lookup, weather] = server.requests.slice(before);
    expect(lookup.path).toBe("/v2/city/lookup");
    expect(Object.fromEntries(lookup.query)).toEqual({ location: "shanghai", key: KEY, lang: "en" });
    expect(weather.path).toBe("/v7/weather/now");
    expect(Object.fromEntries(weather.query)).toEqual({ location: SHANGHAI.id, key: KEY, lang: "en" });
    expect(output.content).toContain("上海, 上海市, 中国");
    expect(output.content).toContain("temp: 26");
    expect(output.content).toContain("text: Sunny");
  });

  it("reads the city from a reference (a Begin input) and gives a forecast as one item per day", async () => {
    const { output } = await run({ location: "{begin@city}", time_period: "7d" }, { "begin@city": "shanghai" });
    expect(server.last().path).toBe("/v7/weather/7d");
    expect(output.items).toHaveLength(7);
    expect(output.items?.[0]).toEqual({ title: "2024-06-01", content: "fxDate: 2024-06-01\ntempMax: 28\ntempMin: 20\ntextDay: 多云" });
  });

  it("reads life indices and air quality", async () => {
    const indices = await run({ type: "indices" });
    expect(Object.fromEntries(server.last().query)).toMatchObject({ type: "0", location: SHANGHAI.id });
    expect(indices.output.content).toBe("上海, 上海市, 中国\n2024-06-01\n运动指数: 较适宜, 天气较好，适宜户外运动。\n穿衣指数: 热, 建议穿短衫、短裤。");
    const air = await run({ type: "airquality" });
    expect(server.last().path).toBe("/v7/air/now");
    expect(air.output.content).toContain("aqi: 46");
  });

  it("asks devapi.qweather.com for free subscriptions and api.qweather.com for paid ones", async () => {
    const { ports, urls } = recordingPorts((url) => Response.json(url.pathname === "/v2/city/lookup" ? { code: "200", location: [SHANGHAI] } : { code: "200", now: { temp: "1" } }));
    await runComponent(qWeather, { params: { web_apikey: KEY }, ports });
    await runComponent(qWeather, { params: { web_apikey: KEY, user_type: "paid" }, ports });
    expect(urls.map((url) => url.origin + url.pathname)).toEqual([
      "https://geoapi.qweather.com/v2/city/lookup",
      "https://devapi.qweather.com/v7/weather/now",
      "https://geoapi.qweather.com/v2/city/lookup",
      "https://api.qweather.com/v7/weather/now",
    ]);
  });

  it("refuses, before running, a period a free subscription cannot read", () => {
    const values = (v: Record<string, unknown>) => withDefaults(qWeather.params, { web_apikey: KEY, ...v });
    expect(validate(qWeather.params, values({ time_period: "15d" })).map((e) => e.messageKey)).toEqual(["flow.components.QWeather.errors.periodNeedsPaid"]);
    expect(validate(qWeather.params, values({ time_period: "15d", user_type: "paid" }))).toEqual([]);
    expect(validate(qWeather.params, values({ time_period: "7d" }))).toEqual([]);
  });

  it("turns QWeather's codes into translated errors: a refused key, an unknown city", async () => {
    const key = await failureOf(run({ web_apikey: "wrong" }));
    expect(key.kind).toBe("OUTSIDE_SERVICE");
    expect(key.messageKey).toBe("flow.components.QWeather.errors.code401");
    expect((await failureOf(run({ location: "atlantis" }))).messageKey).toBe("flow.components.QWeather.errors.code404");
    // The newer error format: an HTTP status and `{error: {status, title}}`.
    server.handle((_request, response) => sendQWeather(response, { error: { status: 429, type: "https://dev.qweather.com/docs/resource/error-code/#too-many-requests", title: "Too Many Requests" } }, 429));
    expect((await failureOf(run({}))).messageKey).toBe("flow.components.QWeather.errors.code429");
  });

  it("says the key is missing, and reports an answer that is not QWeather's", async () => {
    expect((await failureOf(run({ web_apikey: "" }))).messageKey).toBe("flow.errors.missingKey");
    server.handle((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      response.end("not gzip at all");
    });
    expect((await failureOf(run({}))).messageKey).toBe("flow.errors.serviceMalformed");
  });
});
