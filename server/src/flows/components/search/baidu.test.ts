import { startSearchVendor, type SearchVendorServer } from "../../testing/search-vendor-server";
import { runComponent, testPorts } from "../../testing/run-component";
import { baidu } from "./baidu";

let vendor: SearchVendorServer;
beforeAll(async () => {
  vendor = await startSearchVendor();
});
afterAll(() => vendor.close());

const ports = () => testPorts({ baseUrls: { Baidu: vendor.url } });

/**
 * A Baidu result page, cut down to its results: a current result (outer container with `mu`, a nested
 * container, a hashed snippet class), an older one (c-abstract), one without `mu`, and an ad (not a result).
 */
const PAGE = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>氢能源_百度搜索</title></head><body>
<div id="content_left">
<div id="3001" class="EC_result c-container-ad"><h3><a href="https://ad.example.cn">推广</a></h3></div>
<div class="result c-container xpath-log new-pmd" srcid="1599" tpl="se_com_default" id="1" mu="https://baike.baidu.com/item/%E6%B0%A2%E8%83%BD%E6%BA%90/1215405" data-op="{'y':'FF7FDD7F'}">
  <div class="c-container" data-click="{}">
    <h3 class="c-title t t tts-title"><a href="http://www.baidu.com/link?url=AbCdEf" target="_blank"><em>氢能源</em>_百度百科</a></h3>
    <div class="c-row"><span class="content-right_8Zs40">氢能源是一种清洁的<em>二次能源</em>，具有高效、可储存等特点。</span></div>
  </div>
</div>
<div class="result c-container " id="2" srcid="1599" tpl="se_com_default" mu="https://www.example.cn/h2.html">
  <h3 class="t"><a href="http://www.baidu.com/link?url=XyZ" target="_blank">中国<em>氢能源</em>产业发展报告</a></h3>
  <div class="c-abstract"><span class="newTimeFactor_before_abs c-color-gray2 m">2024年3月1日&nbsp;</span>报告指出，氢能产业链&amp;储运环节是关键。</div>
</div>
<div class="result c-container" id="3" srcid="1599" tpl="se_com_default">
  <h3 class="t"><a href="http://www.baidu.com/link?url=NoMu" target="_blank">氢能源汽车</a></h3>
  <div class="c-span-last"><p>燃料电池汽车的原理。</p></div>
</div>
</div>
</body></html>`;

describe("Baidu", () => {
  it("reads Baidu's result page as a browser asks for it, taking each result's real address, title and snippet", async () => {
    vendor.answer(() => ({ body: PAGE }));
    const { output } = await runComponent(baidu, { input: "氢能源", params: { top_n: 5 }, ports: ports() });

    const [request] = vendor.requests;
    expect(`${request.method} ${request.path}`).toBe("GET /s");
    expect(Object.fromEntries(request.query)).toEqual({ wd: "氢能源", rn: "5", ie: "utf-8" });
    expect(request.headers["user-agent"]).toMatch(/^Mozilla\/5\.0/);
    expect(output.items).toEqual([
      { title: "氢能源_百度百科", url: "https://baike.baidu.com/item/%E6%B0%A2%E8%83%BD%E6%BA%90/1215405", content: "氢能源是一种清洁的二次能源，具有高效、可储存等特点。" },
      { title: "中国氢能源产业发展报告", url: "https://www.example.cn/h2.html", content: "2024年3月1日 报告指出，氢能产业链&储运环节是关键。" },
      { title: "氢能源汽车", url: "http://www.baidu.com/link?url=NoMu", content: "燃料电池汽车的原理。" },
    ]);
  });

  it("keeps to top_n, 10 by default (RAGFlow's)", async () => {
    vendor.answer(() => ({ body: PAGE }));
    const { output } = await runComponent(baidu, { input: "氢能源", params: { top_n: 1 }, ports: ports() });
    expect(output.items).toHaveLength(1);
    await runComponent(baidu, { input: "氢能源", ports: ports() });
    expect(vendor.requests[1].query.get("rn")).toBe("10");
  });

  it("says that Baidu is limiting requests when it answers with its security check instead of results", async () => {
    vendor.answer(() => ({ body: '<html><head><title>百度安全验证</title></head><body><a href="https://wappass.baidu.com/static/captcha/tuxing.html?ak=x">网络不给力，请稍后重试</a></body></html>' }));
    await expect(runComponent(baidu, { input: "氢能源", ports: ports() })).rejects.toMatchObject({ kind: "OUTSIDE_SERVICE", messageKey: "flow.errors.search.rateLimited", params: { service: "Baidu" } });
  });

  it("returns no rows for a page without results", async () => {
    vendor.answer(() => ({ body: '<html><body><div id="content_left"><div class="content_none"><p>抱歉没有找到与“qqqzzz”相关的网页。</p></div></div></body></html>' }));
    expect((await runComponent(baidu, { input: "qqqzzz", ports: ports() })).output).toEqual({ content: "", items: [] });
  });
});
