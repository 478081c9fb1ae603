import { createHash } from "node:crypto";
import { sendJson } from "../../../testing/vendor-servers";
import { runComponent } from "../../testing/run-component";
import { BAIDU_ACCOUNT, REFUSED_KEY, descriptionProblems, failureOf, portsFor, recordingPorts, startFakeVendors, type FakeVendors } from "../../testing/services-vendors";
import { baiduFanyi } from "./baidu-fanyi";
import { deepL } from "./deepl";

const DEEPL_KEY = "0a1b2c3d-4e5f-6789-abcd-ef0123456789";
const md5 = (text: string) => createHash("md5").update(text, "utf8").digest("hex");

describe("translation components", () => {
  let vendors: FakeVendors;
  const deeplServer = () => vendors.servers.DeepL;
  const baiduServer = () => vendors.servers.BaiduFanyi;

  beforeAll(async () => {
    vendors = await startFakeVendors(["DeepL", "BaiduFanyi"]);
  });
  afterAll(() => vendors.close());
  afterEach(() => vendors.reset());

  it("describe themselves with valid params and texts in every language", () => {
    expect(descriptionProblems(deepL)).toEqual([]);
    expect(descriptionProblems(baiduFanyi)).toEqual([]);
    expect(deepL.name).toBe("DeepL");
    expect(deepL.category).toBe("translation");
  });

  describe("DeepL", () => {
    const run = (params: Record<string, unknown>, input = "你好，世界") => runComponent(deepL, { params: { auth_key: DEEPL_KEY, ...params }, input, ports: portsFor("DeepL", deeplServer().url) });

    it("translates the input with POST /v2/translate and the key in a DeepL-Auth-Key header", async () => {
      const { output } = await run({ source_lang: "ZH", target_lang: "EN-US" });
      expect(output.content).toBe("[EN-US] 你好，世界");
      const request = deeplServer().last();
      expect(request.method).toBe("POST");
      expect(request.headers.authorization).toBe(`DeepL-Auth-Key ${DEEPL_KEY}`);
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.json).toEqual({ text: ["你好，世界"], source_lang: "ZH", target_lang: "EN-US" });
    });

    it("keeps RAGFlow's defaults (ZH to EN-GB) and reads its input variables before the upstream output", async () => {
      const { output } = await runComponent(deepL, {
        params: { auth_key: DEEPL_KEY },
        input: "ignored",
        inputs: [{ component_id: "begin@text", content: "早上好" }],
        ports: portsFor("DeepL", deeplServer().url),
      });
      expect(output.content).toBe("[EN-GB] 早上好");
    });

    it("sends keys of the free plan (':fx') to api-free.deepl.com and others to api.deepl.com", async () => {
      const { ports, urls } = recordingPorts(() => Response.json({ translations: [{ text: "ok" }] }));
      await runComponent(deepL, { params: { auth_key: "abc:fx" }, input: "x", ports });
      await runComponent(deepL, { params: { auth_key: "abc" }, input: "x", ports });
      expect(urls.map((url) => url.href)).toEqual(["https://api-free.deepl.com/v2/translate", "https://api.deepl.com/v2/translate"]);
    });

    it("gives nothing for an empty input, without calling DeepL", async () => {
      const before = deeplServer().requests.length;
      expect((await run({}, "   ")).output.content).toBe("");
      expect(deeplServer().requests.length).toBe(before);
    });

    it("says a key is missing when none is set (RAGFlow's placeholder 'xxx' included), without calling DeepL", async () => {
      const before = deeplServer().requests.length;
      for (const auth_key of ["", "xxx"]) {
        const error = await failureOf(run({ auth_key }));
        expect(error.kind).toBe("BAD_REQUEST");
        expect(error.messageKey).toBe("flow.errors.missingKey");
        expect(error.params).toEqual({ service: "DeepL", field: "auth_key" });
      }
      expect(deeplServer().requests.length).toBe(before);
    });

    it("tells a refused key, a used-up quota and DeepL's own messages apart", async () => {
      const refused = await failureOf(run({ auth_key: REFUSED_KEY }));
      expect(refused.kind).toBe("OUTSIDE_SERVICE");
      expect(refused.messageKey).toBe("flow.components.DeepL.errors.forbidden");
      deeplServer().handle((_request, response) => sendJson(response, 456, { message: "Quota exceeded" }));
      expect((await failureOf(run({}))).messageKey).toBe("flow.components.DeepL.errors.quotaExceeded");
      deeplServer().handle((_request, response) => sendJson(response, 400, { message: "Value for 'target_lang' not supported." }));
      const bad = await failureOf(run({}));
      expect(bad.messageKey).toBe("flow.errors.serviceStatus");
      expect(bad.params).toMatchObject({ service: "DeepL", status: 400, detail: "Value for 'target_lang' not supported." });
      deeplServer().handle((_request, response) => {
        response.writeHead(502, { "content-type": "text/html" });
        response.end("<html><body>502 Bad Gateway</body></html>");
      });
      expect((await failureOf(run({}))).params).toEqual({ service: "DeepL", status: 502, detail: "" });
    });

    it("reports an answer that is not DeepL's JSON as malformed", async () => {
      deeplServer().handle((_request, response) => {
        response.writeHead(200, { "content-type": "text/html" });
        response.end("<html>captive portal</html>");
      });
      expect((await failureOf(run({}))).messageKey).toBe("flow.errors.serviceMalformed");
      deeplServer().handle((_request, response) => sendJson(response, 200, { translations: [] }));
      expect((await failureOf(run({}))).messageKey).toBe("flow.errors.serviceMalformed");
    });
  });

  describe("BaiduFanyi", () => {
    const run = (params: Record<string, unknown>, input = "你好\n世界") =>
      runComponent(baiduFanyi, { params: { appid: BAIDU_ACCOUNT.appid, secret_key: BAIDU_ACCOUNT.secret_key, source_lang: "zh", target_lang: "en", ...params }, input, ports: portsFor("BaiduFanyi", baiduServer().url) });

    it("translates with a form POST signed md5(appid + q + salt + secret key), one line per result", async () => {
      const { output } = await run({});
      expect(output.content).toBe("你好\n世界".toUpperCase());
      const request = baiduServer().last();
      expect(request.method).toBe("POST");
      expect(request.path).toBe("/api/trans/vip/translate");
      expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded;charset=UTF-8");
      const form = new URLSearchParams(request.body.toString("utf8"));
      expect(Object.fromEntries(form)).toMatchObject({ q: "你好\n世界", from: "zh", to: "en", appid: BAIDU_ACCOUNT.appid });
      expect(form.get("salt")).toMatch(/^\d+$/);
      expect(form.get("sign")).toBe(md5(`${BAIDU_ACCOUNT.appid}你好\n世界${form.get("salt")}${BAIDU_ACCOUNT.secret_key}`));
      expect(form.has("domain")).toBe(false);
    });

    it("translates by domain on /fieldtranslate, the domain signed between salt and key", async () => {
      const { output } = await run({ trans_type: "fieldtranslate", domain: "senimed" }, "aspirin");
      expect(output.content).toBe("senimed:ASPIRIN");
      const form = new URLSearchParams(baiduServer().last().body.toString("utf8"));
      expect(baiduServer().last().path).toBe("/api/trans/vip/fieldtranslate");
      expect(form.get("domain")).toBe("senimed");
      expect(form.get("sign")).toBe(md5(`${BAIDU_ACCOUNT.appid}aspirin${form.get("salt")}senimed${BAIDU_ACCOUNT.secret_key}`));
    });

    it("turns Baidu's error codes into translated errors", async () => {
      const sign = await failureOf(run({ secret_key: "not-the-key" }));
      expect(sign.kind).toBe("OUTSIDE_SERVICE");
      expect(sign.messageKey).toBe("flow.components.BaiduFanyi.errors.e54001");
      expect((await failureOf(run({ appid: "123" }))).messageKey).toBe("flow.components.BaiduFanyi.errors.e52003");
      expect((await failureOf(run({ source_lang: "wyw", target_lang: "kor" }))).messageKey).toBe("flow.components.BaiduFanyi.errors.e58001");
      baiduServer().handle((_request, response) => sendJson(response, 200, { error_code: "20003", error_msg: "Request content has security risks" }));
      const other = await failureOf(run({}));
      expect(other.messageKey).toBe("flow.errors.serviceError");
      expect(other.params).toEqual({ service: "BaiduFanyi", detail: "20003 Request content has security risks" });
    });

    it("asks for a target language rather than sending 'auto', RAGFlow's default, which Baidu refuses", async () => {
      const before = baiduServer().requests.length;
      const error = await failureOf(run({ target_lang: "auto" }));
      expect(error.kind).toBe("BAD_REQUEST");
      expect(error.messageKey).toBe("flow.components.BaiduFanyi.errors.targetAuto");
      expect(baiduServer().requests.length).toBe(before);
    });

    it("says which credential is missing", async () => {
      expect((await failureOf(run({ appid: "xxx" }))).params).toEqual({ service: "BaiduFanyi", field: "appid" });
      expect((await failureOf(run({ secret_key: "" }))).params).toEqual({ service: "BaiduFanyi", field: "secret_key" });
    });

    it("offers spec §9's languages, types and domains", () => {
      const options = (key: string) => baiduFanyi.params.find((p) => p.key === key)?.options?.map((o) => o.value);
      expect(options("source_lang")).toEqual(["auto", "zh", "en", "yue", "wyw", "jp", "kor", "fra", "spa", "th", "ara", "ru", "pt", "de", "it", "el", "nl", "pl", "bul", "est", "dan", "fin", "cs", "rom", "slo", "swe", "hu", "cht", "vie"]);
      expect(options("trans_type")).toEqual(["translate", "fieldtranslate"]);
      expect(options("domain")).toEqual(["it", "finance", "machinery", "senimed", "novel", "academic", "aerospace", "wiki", "news", "law", "contract"]);
    });
  });
});
