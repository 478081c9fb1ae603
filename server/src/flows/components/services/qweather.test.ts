import { validate, withDefaults } from "../../../platform/param-spec";
import { runComponent } from "../../testing/run-component";
import { REFUSED_KEY, SHANGHAI, descriptionProblems, failureOf, portsFor, recordingPorts, sendQWeather, startFakeVendors, type FakeVendors } from "../../testing/services-vendors";
import { qWeather } from "./qweather";

const KEY = "947e8994bc5f488f8857d618ebac1b19";

describe("QWeather", () => {
  let vendors: FakeVendors;
  let server: FakeVendors["servers"][string];
  const run = (params: Record<string, unknown>, variables: Record<string, string> = {}) =>
    runComponent(qWeather, { params: { web_apikey: KEY, ...params }, variables, input: "Will it rain tomorrow?", ports: portsFor("QWeather", server.url) });

  beforeAll(async () => {
    vendors = await startFakeVendors(["QWeather"]);
    server = vendors.servers.QWeather;
  });
  afterAll(() => vendors.close());
  afterEach(() => vendors.reset());

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
    const key = await failureOf(run({ web_apikey: REFUSED_KEY }));
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
