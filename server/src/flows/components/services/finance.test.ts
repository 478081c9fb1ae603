import type http from "node:http";
import { sendJson, startVendorServer, type RecordedRequest, type VendorServer } from "../../../testing/vendor-servers";
import type { ComponentDefinition } from "../../component";
import { runComponent } from "../../testing/run-component";
import { descriptionProblems, failureOf, portsFor, recordingPorts } from "../../testing/services-vendors";
import { akShare } from "./akshare";
import { jin10Component } from "./jin10";
import { tuShare } from "./tushare";
import { wenCai } from "./wencai";
import { yahooFinance } from "./yahoo-finance";

const sendText = (response: http.ServerResponse, status: number, text: string, headers: http.OutgoingHttpHeaders = {}) => {
  response.writeHead(status, { "content-type": "text/plain", ...headers });
  response.end(text);
};

/** One local server per vendor, each speaking that vendor's protocol; tests swap a handler for an error case. */
const servers: Record<string, VendorServer> = {};
const HANDLERS: Record<string, (request: RecordedRequest, response: http.ServerResponse) => void> = {};
const run = (component: ComponentDefinition, params: Record<string, unknown>, input = "") => runComponent(component, { params, input, ports: portsFor(component.name, servers[component.name].url) });

beforeAll(async () => {
  for (const [name, handler] of Object.entries(HANDLERS)) servers[name] = await startVendorServer(handler);
});
afterAll(() => Promise.all(Object.values(servers).map((server) => server.close())));
afterEach(() => {
  for (const [name, handler] of Object.entries(HANDLERS)) servers[name].handle(handler);
});

it("the finance components describe themselves with valid params and texts in every language", () => {
  for (const component of [wenCai, akShare, yahooFinance, jin10Component, tuShare]) {
    expect({ component: component.name, problems: descriptionProblems(component) }).toEqual({ component: component.name, problems: [] });
    expect(component.category).toBe("data");
  }
  const options = (component: ComponentDefinition, key: string) => component.params.find((p) => p.key === key)?.options?.map((o) => o.value);
  expect(options(wenCai, "query_type")).toEqual(["stock", "zhishu", "fund", "hkstock", "usstock", "threeboard", "conbond", "insurance", "futures", "lccp", "foreign_exchange"]);
  expect(options(tuShare, "src")).toHaveLength(7);
  expect(options(jin10Component, "flash_type")).toEqual(["1", "2", "3", "4", "5"]);
  expect(options(jin10Component, "calendar_type")).toEqual(["cj", "qh", "hk", "us"]);
  expect(options(jin10Component, "calendar_datatype")).toEqual(["data", "event", "holiday"]);
  expect(options(jin10Component, "symbols_type")).toEqual(["GOODS", "FOREX", "FUTURE", "CRYPTO"]);
  expect(options(jin10Component, "symbols_datatype")).toEqual(["symbols", "quotes"]);
});

// ---------------------------------------------------------------------------------------------------- WenCai
const CONDITION = '[{"indexName":"涨跌幅:前复权","opName":">","opValue":"5"}]';

HANDLERS.WenCai = (request, response) => {
  if (request.path === "/customized/chart/get-robot-data") {
    const body = request.json;
    if (!String(request.headers["user-agent"]).startsWith("Mozilla/5.0")) return sendJson(response, 403, {});
    if (body.source !== "Ths_iwencai_Xuangu" || body.version !== "2.0" || typeof body.add_info !== "string") return sendJson(response, 200, { status_code: -1, status_msg: "bad request" });
    if (String(body.question).includes("涨幅")) {
      const picking = { show_type: "xuangu_tableV1", cid: 7, puuid: 42, data: { meta: { extra: { condition: CONDITION, row_count: 2 } }, datas: [] } };
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
    if (form.get("condition") !== CONDITION || form.get("comp_id") !== "7" || form.get("uuid") !== "42") return sendJson(response, 200, { status_code: -1, status_msg: "condition lost" });
    const rows = [
      { 股票代码: "600519.SH", 股票简称: "贵州茅台", "涨跌幅:前复权": "6.1" },
      { 股票代码: "000858.SZ", 股票简称: "五粮液", "涨跌幅:前复权": "5.4" },
    ].slice(0, Number(form.get("perpage")));
    return sendJson(response, 200, { answer: { components: [{ data: { datas: rows } }] } });
  }
  return sendJson(response, 404, {});
};

describe("WenCai", () => {
  it("asks get-robot-data the question as pywencai does, and reads a stock-picking table from getDataList", async () => {
    const { output } = await run(wenCai, { query_type: "stock", top_n: 5 }, "昨日涨幅大于5%的股票");
    const [robot, page] = servers.WenCai.requests.slice(-2);
    expect(robot.json).toMatchObject({ question: "昨日涨幅大于5%的股票", secondary_intent: "stock", perpage: "5", page: 1 });
    expect(page.path).toBe("/gateway/urp/v7/landing/getDataList");
    expect(Object.fromEntries(new URLSearchParams(page.body.toString("utf8")))).toMatchObject({ query: "昨日涨幅大于5%的股票", query_type: "stock", perpage: "5", condition: CONDITION });
    expect(output.content).toBe("| 股票代码 | 股票简称 | 涨跌幅:前复权 |\n| --- | --- | --- |\n| 600519.SH | 贵州茅台 | 6.1 |\n| 000858.SZ | 五粮液 | 5.4 |");
  });

  it("turns other answers into their titled texts and tables", async () => {
    const { output } = await run(wenCai, { query_type: "fund" }, "贵州茅台");
    expect(output.items?.map((item) => item.content)).toEqual(["贵州茅台\nfund: 贵州茅台今日收涨 1.2%", "财务指标\n| 指标 | 数值 |\n| --- | --- |\n| 市盈率 | 28.5 |"]);
  });

  it("reports the site's refusals and an answer without results", async () => {
    servers.WenCai.handle((_request, response) => sendJson(response, 403, { message: "forbidden" }));
    expect((await failureOf(run(wenCai, {}, "x"))).params).toMatchObject({ service: "WenCai", status: 403 });
    servers.WenCai.handle((_request, response) => sendJson(response, 200, { status_code: -1, status_msg: "访问过于频繁" }));
    expect((await failureOf(run(wenCai, {}, "x"))).params).toEqual({ service: "WenCai", detail: "-1 访问过于频繁" });
    servers.WenCai.handle((_request, response) => sendJson(response, 200, { data: { answer: [] } }));
    expect((await failureOf(run(wenCai, {}, "x"))).messageKey).toBe("flow.errors.serviceMalformed");
  });
});

// ---------------------------------------------------------------------------------------------------- AkShare
HANDLERS.AkShare = (request, response) => {
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

describe("AkShare", () => {
  it("searches Eastmoney's news for the stock as stock_news_em does and lists the first top_n articles", async () => {
    const { output } = await run(akShare, { top_n: 3 }, "600519");
    const search = JSON.parse(servers.AkShare.last().query.get("param") ?? "{}");
    expect(search).toMatchObject({ keyword: "600519", type: ["cmsArticleWebOld"], client: "web", param: { cmsArticleWebOld: { pageIndex: 1, pageSize: 3 } } });
    expect(output.items).toHaveLength(3);
    expect(output.items?.[0]).toEqual({ title: "600519 新闻 1", url: "http://finance.eastmoney.com/a/202406010000.html", content: "正文 1\nPublished: 2024-06-01 09:30:00\nSource: 证券时报" });
    expect(output.content.startsWith("[600519 新闻 1](http://finance.eastmoney.com/a/202406010000.html)\n正文 1")).toBe(true);
  });

  it("gives nothing without a symbol, and reports an answer that is not Eastmoney's", async () => {
    expect((await run(akShare, {}, " ")).output.content).toBe("");
    servers.AkShare.handle((_request, response) => sendText(response, 200, "<html>验证</html>"));
    expect((await failureOf(run(akShare, {}, "600519"))).messageKey).toBe("flow.errors.serviceMalformed");
  });
});

// ---------------------------------------------------------------------------------------------------- YahooFinance
const CRUMB = "Xy9/AbCdEfG";
HANDLERS.YahooFinance = (request, response) => {
  const cookie = String(request.headers.cookie ?? "");
  if (request.path === "/") return sendText(response, 404, "Not Found", { "set-cookie": ["A3=d=AQABBOx; Expires=Wed, 1 Jan 2031 00:00:00 GMT; Domain=.yahoo.com; Path=/; Secure", "A1S=d=AQABBOx&j=WORLD; Domain=.yahoo.com; Path=/"] });
  if (request.path === "/v1/test/getcrumb") return cookie.includes("A3=d=AQABBOx") ? sendText(response, 200, CRUMB) : sendJson(response, 401, { finance: { result: null, error: { code: "Unauthorized", description: "Invalid Cookie" } } });
  const summary = /^\/v10\/finance\/quoteSummary\/([^/]+)$/.exec(request.path);
  if (summary) {
    if (request.query.get("crumb") !== CRUMB || !cookie.includes("A3=")) return sendJson(response, 401, { finance: { result: null, error: { code: "Unauthorized", description: "Invalid Crumb" } } });
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

describe("YahooFinance", () => {
  it("reads info with a session cookie and crumb from quoteSummary, and news from search (RAGFlow's defaults)", async () => {
    const before = servers.YahooFinance.requests.length;
    const { output } = await run(yahooFinance, {}, " aapl ");
    const paths = servers.YahooFinance.requests.slice(before).map((r) => r.path);
    expect(paths).toEqual(["/", "/v1/test/getcrumb", "/v10/finance/quoteSummary/AAPL", "/v1/finance/search"]);
    const summary = servers.YahooFinance.requests[before + 2];
    expect(summary.query.get("modules")).toBe("assetProfile,price,summaryDetail,financialData");
    expect(summary.headers.cookie).toBe("A3=d=AQABBOx; A1S=d=AQABBOx&j=WORLD");
    expect(output.items?.map((item) => item.title)).toEqual(["Info", "News"]);
    expect(output.content).toContain("sector: Technology");
    expect(output.content).toContain("regularMarketPrice: 189.98");
    expect(output.content).toContain("| Apple unveils | Reuters | https://finance.yahoo.com/news/apple-1.html | 2024-05-31 12:53 |");
  });

  it("reads a month of prices from the chart API and statements as tables", async () => {
    const { output } = await run(yahooFinance, { info: false, news: false, history: true, income_stmt: true }, "AAPL");
    expect(output.items?.map((item) => item.title)).toEqual(["Income statement", "Quarterly income statement", "History"]);
    expect(output.items?.[0].content).toBe("| endDate | totalRevenue |\n| --- | --- |\n| 2023-09-30 | 383.29B |");
    expect(output.items?.[2].content).toContain("| 2024-05-30 | 190.76 | 192.18 | 190.63 | 191.29 | 49889100 |");
    expect(Object.fromEntries(servers.YahooFinance.last().query)).toEqual({ range: "1mo", interval: "1d" });
  });

  it("says an unknown ticker is unknown, and reports Yahoo's other refusals", async () => {
    const unknown = await failureOf(run(yahooFinance, {}, "NOPE"));
    expect(unknown.messageKey).toBe("flow.components.YahooFinance.errors.notFound");
    expect(unknown.params).toEqual({ ticker: "NOPE" });
    servers.YahooFinance.handle((request, response) => (request.path === "/" ? sendText(response, 404, "") : HANDLERS.YahooFinance(request, response)));
    expect((await failureOf(run(yahooFinance, {}, "AAPL"))).params).toMatchObject({ service: "YahooFinance", status: 401 });
  });

  it("asks fc.yahoo.com for the cookie and query2.finance.yahoo.com for the data", async () => {
    const { ports, urls } = recordingPorts((url) => (url.pathname === "/v1/finance/search" ? Response.json({ news: [] }) : new Response("crumb")));
    await runComponent(yahooFinance, { params: { info: false }, input: "MSFT", ports });
    expect(urls.map((url) => url.origin + url.pathname)).toEqual(["https://query2.finance.yahoo.com/v1/finance/search"]);
    urls.length = 0;
    await failureOf(runComponent(yahooFinance, { params: { news: false }, input: "MSFT", ports }));
    expect(urls.slice(0, 2).map((url) => url.origin + url.pathname)).toEqual(["https://fc.yahoo.com/", "https://query2.finance.yahoo.com/v1/test/getcrumb"]);
  });
});

// ---------------------------------------------------------------------------------------------------- Jin10
const JIN10_KEY = "jin10-secret";
HANDLERS.Jin10 = (request, response) => {
  if (request.headers["secret-key"] !== JIN10_KEY) return sendJson(response, 200, { status: 401, message: "secret-key错误", data: null });
  const q = request.query;
  const ok = (data: unknown) => sendJson(response, 200, { status: 200, message: "OK", data });
  if (request.path === "/data-api/flash") {
    const flashes = [
      { id: "1", time: "2024-06-01 10:00:00", type: 0, data: { content: `<b>类别${q.get("category")}</b>：美联储维持利率不变` } },
      { id: "2", time: "2024-06-01 10:05:00", type: 0, data: { content: "现货黄金<br/>日内涨 1%" } },
    ];
    return ok(flashes.filter((f) => !q.get("contain") || f.data.content.includes(q.get("contain") ?? "")));
  }
  if (request.path === `/data-api/calendar/data`) return ok([{ pub_time: "2024-06-07 20:30", country: "美国", name: `非农就业(${q.get("category")})`, actual: "27.2", consensus: "18.5", previous: "17.5" }]);
  if (request.path === "/data-api/symbols") return ok([{ c: "XAUUSD", e: "FOREX", n: "现货黄金", t: q.get("type") }]);
  if (request.path === "/data-api/quotes") return ok((q.get("codes") ?? "").split(",").map((c) => ({ a: 1, b: 2, c, e: "FX", h: 3, hc: 4, l: 5, o: 6, p: 7, t: "2024-06-01 10:00:00" })));
  if (request.path === "/data-api/news") return ok([{ id: 9, title: "周度前瞻", introduction: "下周重磅数据", time: "2024-06-01 08:00:00", url: "https://xnews.jin10.com/details/9" }]);
  return sendJson(response, 404, { status: 404, message: "Not Found" });
};

describe("Jin10", () => {
  const jin10 = (params: Record<string, unknown>, input = "") => run(jin10Component, { secret_key: JIN10_KEY, ...params }, input);

  it("reads news flashes of a category with the secret-key header and the contain filter as query parameters", async () => {
    const { output } = await jin10({ flash_type: "3", contain: "美联储" });
    expect(servers.Jin10.last().path).toBe("/data-api/flash");
    expect(Object.fromEntries(servers.Jin10.last().query)).toEqual({ category: "3", contain: "美联储" });
    expect(output.items).toEqual([{ title: "2024-06-01 10:00:00", content: "类别3：美联储维持利率不变" }]);
  });

  it("reads calendars, symbols, quotes for the codes it reads, and news", async () => {
    const calendar = await jin10({ type: "calendar", calendar_type: "us" });
    expect(servers.Jin10.last().path).toBe("/data-api/calendar/data");
    expect(calendar.output.content).toContain("| 2024-06-07 20:30 | 美国 | 非农就业(us) | 27.2 | 18.5 | 17.5 |");
    const symbols = await jin10({ type: "symbols", symbols_type: "FOREX" });
    expect(symbols.output.content).toBe("| Code | Exchange | Name | Type |\n| --- | --- | --- | --- |\n| XAUUSD | FOREX | 现货黄金 | FOREX |");
    const quotes = await jin10({ type: "symbols", symbols_datatype: "quotes" }, "XAUUSD, BTCUSD");
    expect(Object.fromEntries(servers.Jin10.last().query)).toEqual({ type: "GOODS", codes: "XAUUSD,BTCUSD" });
    expect(quotes.output.content.split("\n")[0]).toBe("| Code | Exchange | Latest price | Open | High | Low | Previous close | Ask | Bid | Quote time |");
    const news = await jin10({ type: "news" });
    expect(news.output.items).toEqual([{ title: "周度前瞻", url: "https://xnews.jin10.com/details/9", content: "2024-06-01 08:00:00\n下周重磅数据" }]);
  });

  it("reports a refused key with Jin10's message, and a missing one before calling", async () => {
    const refused = await failureOf(jin10({ secret_key: "wrong" }));
    expect(refused.params).toEqual({ service: "Jin10", detail: "401 secret-key错误" });
    expect((await failureOf(jin10({ secret_key: "xxx" }))).messageKey).toBe("flow.errors.missingKey");
  });
});

// ---------------------------------------------------------------------------------------------------- TuShare
const TOKEN = "tushare-token";
HANDLERS.TuShare = (request, response) => {
  const body = request.json;
  if (request.method !== "POST" || request.path !== "/") return sendJson(response, 404, {});
  if (body.token !== TOKEN) return sendJson(response, 200, { request_id: "r1", code: 40101, msg: "抱歉，您的token不对，请确认。", data: null });
  if (body.api_name !== "news") return sendJson(response, 200, { request_id: "r2", code: 40203, msg: "接口名不存在", data: null });
  const fields = String(body.fields).split(",");
  const rows = [
    { datetime: "2024-06-01 09:31:00", title: "", content: "央行开展逆回购操作", channels: "" },
    { datetime: "2024-06-01 09:45:00", title: "茅台", content: "贵州茅台股价上涨", channels: "A股" },
  ];
  return sendJson(response, 200, { request_id: "r3", code: 0, msg: "", data: { fields, items: rows.map((row) => fields.map((f) => row[f as keyof typeof row])), has_more: false } });
};

describe("TuShare", () => {
  it("posts {api_name: 'news', token, params, fields} and filters the flashes by keyword", async () => {
    const { output } = await run(tuShare, { token: TOKEN, src: "sina", start_date: "2024-06-01 09:00:00", end_date: "2024-06-01 10:00:00", keyword: "茅台" });
    expect(servers.TuShare.last().json).toEqual({ api_name: "news", token: TOKEN, params: { src: "sina", start_date: "2024-06-01 09:00:00", end_date: "2024-06-01 10:00:00" }, fields: "datetime,title,content,channels" });
    expect(output.items).toEqual([{ title: "2024-06-01 09:45:00 茅台", content: "贵州茅台股价上涨" }]);
  });

  it("ends at now (China time) when no end is set", async () => {
    const { output } = await run(tuShare, { token: TOKEN });
    expect(servers.TuShare.last().json.params.end_date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(output.items).toHaveLength(2);
  });

  it("reports Tushare's own errors and a missing token", async () => {
    expect((await failureOf(run(tuShare, { token: "nope" }))).params).toEqual({ service: "TuShare", detail: "40101 抱歉，您的token不对，请确认。" });
    expect((await failureOf(run(tuShare, {}))).messageKey).toBe("flow.errors.missingKey");
  });
});
