import { sendJson } from "../../../testing/vendor-servers";
import type { ComponentDefinition } from "../../component";
import { runComponent } from "../../testing/run-component";
import { REFUSED_KEY, WENCAI_CONDITION, descriptionProblems, failureOf, portsFor, recordingPorts, sendText, startFakeVendors, yahooFinanceFake, type FakeVendors } from "../../testing/services-vendors";
import { akShare } from "./akshare";
import { jin10Component } from "./jin10";
import { tuShare } from "./tushare";
import { wenCai } from "./wencai";
import { yahooFinance } from "./yahoo-finance";

let vendors: FakeVendors;
const run = (component: ComponentDefinition, params: Record<string, unknown>, input = "") => runComponent(component, { params, input, ports: portsFor(component.name, vendors.baseUrls[component.name]) });

beforeAll(async () => {
  vendors = await startFakeVendors(["WenCai", "AkShare", "YahooFinance", "Jin10", "TuShare"]);
});
afterAll(() => vendors.close());
afterEach(() => vendors.reset());

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
describe("WenCai", () => {
  it("asks get-robot-data the question as pywencai does, and reads a stock-picking table from getDataList", async () => {
    const { output } = await run(wenCai, { query_type: "stock", top_n: 5 }, "昨日涨幅大于5%的股票");
    const [robot, page] = vendors.servers.WenCai.requests.slice(-2);
    expect(robot.json).toMatchObject({ question: "昨日涨幅大于5%的股票", secondary_intent: "stock", perpage: "5", page: 1 });
    expect(page.path).toBe("/gateway/urp/v7/landing/getDataList");
    expect(Object.fromEntries(new URLSearchParams(page.body.toString("utf8")))).toMatchObject({ query: "昨日涨幅大于5%的股票", query_type: "stock", perpage: "5", condition: WENCAI_CONDITION });
    expect(output.content).toBe("| 股票代码 | 股票简称 | 涨跌幅:前复权 |\n| --- | --- | --- |\n| 600519.SH | 贵州茅台 | 6.1 |\n| 000858.SZ | 五粮液 | 5.4 |");
  });

  it("turns other answers into their titled texts and tables", async () => {
    const { output } = await run(wenCai, { query_type: "fund" }, "贵州茅台");
    expect(output.items?.map((item) => item.content)).toEqual(["贵州茅台\nfund: 贵州茅台今日收涨 1.2%", "财务指标\n| 指标 | 数值 |\n| --- | --- |\n| 市盈率 | 28.5 |"]);
  });

  it("reports the site's refusals and an answer without results", async () => {
    vendors.servers.WenCai.handle((_request, response) => sendJson(response, 403, { message: "forbidden" }));
    expect((await failureOf(run(wenCai, {}, "x"))).params).toMatchObject({ service: "WenCai", status: 403 });
    vendors.servers.WenCai.handle((_request, response) => sendJson(response, 200, { status_code: -1, status_msg: "访问过于频繁" }));
    expect((await failureOf(run(wenCai, {}, "x"))).params).toEqual({ service: "WenCai", detail: "-1 访问过于频繁" });
    vendors.servers.WenCai.handle((_request, response) => sendJson(response, 200, { data: { answer: [] } }));
    expect((await failureOf(run(wenCai, {}, "x"))).messageKey).toBe("flow.errors.serviceMalformed");
  });
});

// ---------------------------------------------------------------------------------------------------- AkShare
describe("AkShare", () => {
  it("searches Eastmoney's news for the stock as stock_news_em does and lists the first top_n articles", async () => {
    const { output } = await run(akShare, { top_n: 3 }, "600519");
    const search = JSON.parse(vendors.servers.AkShare.last().query.get("param") ?? "{}");
    expect(search).toMatchObject({ keyword: "600519", type: ["cmsArticleWebOld"], client: "web", param: { cmsArticleWebOld: { pageIndex: 1, pageSize: 3 } } });
    expect(output.items).toHaveLength(3);
    expect(output.items?.[0]).toEqual({ title: "600519 新闻 1", url: "http://finance.eastmoney.com/a/202406010000.html", content: "正文 1\nPublished: 2024-06-01 09:30:00\nSource: 证券时报" });
    expect(output.content.startsWith("[600519 新闻 1](http://finance.eastmoney.com/a/202406010000.html)\n正文 1")).toBe(true);
  });

  it("gives nothing without a symbol, and reports an answer that is not Eastmoney's", async () => {
    expect((await run(akShare, {}, " ")).output.content).toBe("");
    vendors.servers.AkShare.handle((_request, response) => sendText(response, 200, "<html>验证</html>"));
    expect((await failureOf(run(akShare, {}, "600519"))).messageKey).toBe("flow.errors.serviceMalformed");
  });
});

// ---------------------------------------------------------------------------------------------------- YahooFinance
describe("YahooFinance", () => {
  it("reads info with a session cookie and crumb from quoteSummary, and news from search (RAGFlow's defaults)", async () => {
    const before = vendors.servers.YahooFinance.requests.length;
    const { output } = await run(yahooFinance, {}, " aapl ");
    const paths = vendors.servers.YahooFinance.requests.slice(before).map((r) => r.path);
    expect(paths).toEqual(["/", "/v1/test/getcrumb", "/v10/finance/quoteSummary/AAPL", "/v1/finance/search"]);
    const summary = vendors.servers.YahooFinance.requests[before + 2];
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
    expect(Object.fromEntries(vendors.servers.YahooFinance.last().query)).toEqual({ range: "1mo", interval: "1d" });
  });

  it("says an unknown ticker is unknown, and reports Yahoo's other refusals", async () => {
    const unknown = await failureOf(run(yahooFinance, {}, "NOPE"));
    expect(unknown.messageKey).toBe("flow.components.YahooFinance.errors.notFound");
    expect(unknown.params).toEqual({ ticker: "NOPE" });
    vendors.servers.YahooFinance.handle((request, response) => (request.path === "/" ? sendText(response, 404, "") : yahooFinanceFake(request, response)));
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

describe("Jin10", () => {
  const jin10 = (params: Record<string, unknown>, input = "") => run(jin10Component, { secret_key: JIN10_KEY, ...params }, input);

  it("reads news flashes of a category with the secret-key header and the contain filter as query parameters", async () => {
    const { output } = await jin10({ flash_type: "3", contain: "美联储" });
    expect(vendors.servers.Jin10.last().path).toBe("/data-api/flash");
    expect(vendors.servers.Jin10.last().headers["secret-key"]).toBe(JIN10_KEY);
    expect(Object.fromEntries(vendors.servers.Jin10.last().query)).toEqual({ category: "3", contain: "美联储" });
    expect(output.items).toEqual([{ title: "2024-06-01 10:00:00", content: "类别3：美联储维持利率不变" }]);
  });

  it("reads calendars, symbols, quotes for the codes it reads, and news", async () => {
    const calendar = await jin10({ type: "calendar", calendar_type: "us" });
    expect(vendors.servers.Jin10.last().path).toBe("/data-api/calendar/data");
    expect(calendar.output.content).toContain("| 2024-06-07 20:30 | 美国 | 非农就业(us) | 27.2 | 18.5 | 17.5 |");
    const symbols = await jin10({ type: "symbols", symbols_type: "FOREX" });
    expect(symbols.output.content).toBe("| Code | Exchange | Name | Type |\n| --- | --- | --- | --- |\n| XAUUSD | FOREX | 现货黄金 | FOREX |");
    const quotes = await jin10({ type: "symbols", symbols_datatype: "quotes" }, "XAUUSD, BTCUSD");
    expect(Object.fromEntries(vendors.servers.Jin10.last().query)).toEqual({ type: "GOODS", codes: "XAUUSD,BTCUSD" });
    expect(quotes.output.content.split("\n")[0]).toBe("| Code | Exchange | Latest price | Open | High | Low | Previous close | Ask | Bid | Quote time |");
    const news = await jin10({ type: "news" });
    expect(news.output.items).toEqual([{ title: "周度前瞻", url: "https://xnews.jin10.com/details/9", content: "2024-06-01 08:00:00\n下周重磅数据" }]);
  });

  it("reports a refused key with Jin10's message, and a missing one before calling", async () => {
    const refused = await failureOf(jin10({ secret_key: REFUSED_KEY }));
    expect(refused.params).toEqual({ service: "Jin10", detail: "401 secret-key错误" });
    expect((await failureOf(jin10({ secret_key: "xxx" }))).messageKey).toBe("flow.errors.missingKey");
  });
});

// ---------------------------------------------------------------------------------------------------- TuShare
const TOKEN = "tushare-token";

describe("TuShare", () => {
  it("posts {api_name: 'news', token, params, fields} and filters the flashes by keyword", async () => {
    const { output } = await run(tuShare, { token: TOKEN, src: "sina", start_date: "2024-06-01 09:00:00", end_date: "2024-06-01 10:00:00", keyword: "茅台" });
    expect(vendors.servers.TuShare.last().json).toEqual({ api_name: "news", token: TOKEN, params: { src: "sina", start_date: "2024-06-01 09:00:00", end_date: "2024-06-01 10:00:00" }, fields: "datetime,title,content,channels" });
    expect(output.items).toEqual([{ title: "2024-06-01 09:45:00 茅台", content: "贵州茅台股价上涨" }]);
  });

  it("ends at now (China time) when no end is set", async () => {
    const { output } = await run(tuShare, { token: TOKEN });
    expect(vendors.servers.TuShare.last().json.params.end_date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(output.items).toHaveLength(2);
  });

  it("reports Tushare's own errors and a missing token", async () => {
    expect((await failureOf(run(tuShare, { token: REFUSED_KEY }))).params).toEqual({ service: "TuShare", detail: "40101 抱歉，您的token不对，请确认。" });
    expect((await failureOf(run(tuShare, {}))).messageKey).toBe("flow.errors.missingKey");
  });
});
