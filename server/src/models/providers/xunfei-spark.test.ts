import type http from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { modelOutboundPolicy } from "../http";
import { completeChat } from "../model-types";
import { collect, neverAnswer, refuseUpgrade, sendJson, sseBody, startVendorServer, unreachableUrl, writeSlowly, type RecordedRequest, type VendorServer } from "../../testing/vendor-servers";
import { verifyXfyunUrl } from "../../testing/vendor-signatures";
import { signedSparkUrl, xunfeiSparkProvider } from "./xunfei-spark";

const API_PASSWORD = "spark-api-password:abc";
const APP_ID = "5f9e0a1b";
const API_KEY = "key0123456789abcdef0123456789abcd";
const API_SECRET = "secretMDAwMDAwMDAwMDAwMDAwMDAwMDAw";
const DELTAS = ["我是", "讯飞星火", "认知大模型"];
const AUDIO = [Buffer.from("ID3\u0004first-frame", "latin1"), Buffer.from([0xff, 0xfb, 0x90, 0x64, 1, 2, 3]), Buffer.from([0xff, 0xfb, 0x90, 0x64, 4, 5])];

/** Spark's OpenAI-style HTTP chat: bearer APIPassword, SSE chunks with code 0, usage in the last one, then [DONE]. */
function sparkHandler(request: RecordedRequest, response: http.ServerResponse) {
  if (request.path !== "/v1/chat/completions") return sendJson(response, 404, { message: "no route" });
  if (request.headers.authorization !== `Bearer ${API_PASSWORD}`) return sendJson(response, 401, { message: "HMAC signature cannot be verified" });
  if (request.json.model !== "generalv3.5") return sendJson(response, 200, { code: 10404, message: `model ${request.json.model} does not exist`, sid: "cha1" });
  const chunks = DELTAS.map((content, i) => ({
    code: 0,
    message: "Success",
    sid: "cha000b0003@dx1905cd86d6bb86d552",
    id: "cha000b0003@dx1905cd86d6bb86d552",
    created: 1_719_546_385,
    choices: [{ delta: { role: "assistant", content }, index: 0 }],
    ...(i === DELTAS.length - 1 ? { usage: { prompt_tokens: 4, completion_tokens: 9, total_tokens: 13 } } : {}),
  }));
  return writeSlowly(response, 200, { "content-type": "text/event-stream" }, sseBody([...chunks.map((data) => ({ data })), "[DONE]"]), { pieceSize: 10 });
}

/** tts-api.xfyun.cn/v2/tts: the signed upgrade, one request frame, MP3 frames until status 2. */
function ttsUpgrades(wss: WebSocketServer, behaviour: { hang?: boolean } = {}) {
  return (req: http.IncomingMessage, socket: Duplex, head: Buffer, recorded: RecordedRequest) => {
    const check = verifyXfyunUrl(recorded, (key) => (key === API_KEY ? API_SECRET : undefined));
    if (recorded.path !== "/v2/tts") return refuseUpgrade(socket, 404, { message: "no Route matched with those values" });
    if (!check.ok) return refuseUpgrade(socket, check.reason.startsWith("apikey not found") ? 401 : 403, { message: check.reason });
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      ws.on("message", async (raw) => {
        const frame = JSON.parse(raw.toString()) as { common: { app_id: string }; business: { vcn: string; aue: string }; data: { status: number; text: string } };
        received.push(frame);
        if (behaviour.hang) return;
        if (frame.common.app_id !== APP_ID) return ws.send(JSON.stringify({ code: 10313, message: "appid cannot be empty or invalid", sid: "tts1" }));
        if (frame.business.vcn !== "xiaoyan") return ws.send(JSON.stringify({ code: 11200, message: "licc failed: no authorization for this voice", sid: "tts1" }));
        for (const [i, piece] of AUDIO.entries()) {
          ws.send(JSON.stringify({ code: 0, message: "success", sid: "tts1", data: { audio: piece.toString("base64"), status: i === AUDIO.length - 1 ? 2 : 1, ced: String(i) } }));
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      });
    });
  };
}
let received: { common: { app_id: string }; business: { vcn: string; aue: string }; data: { status: number; text: string } }[] = [];

describe("XunFei Spark", () => {
  let server: VendorServer;
  let wss: WebSocketServer;
  const credentials = { appId: APP_ID, apiKey: API_KEY, apiSecret: API_SECRET, apiPassword: API_PASSWORD };
  const provider = (timeoutMs = 2_000) => xunfeiSparkProvider({ chatBaseUrl: `${server.url}/v1`, ttsUrl: `${server.url.replace("http", "ws")}/v2/tts`, timeoutMs });

  beforeAll(async () => {
    server = await startVendorServer(sparkHandler);
    wss = new WebSocketServer({ noServer: true });
    server.handleUpgrades(ttsUpgrades(wss));
  });
  afterAll(async () => {
    for (const client of wss.clients) client.terminate();
    wss.close();
    await server.close();
  });
  afterEach(() => {
    server.handle(sparkHandler);
    server.handleUpgrades(ttsUpgrades(wss));
    received = [];
  });

  it("asks for the four credentials of §3 and wants either the API password or the app id, key and secret", () => {
    const { credentialFields, validate } = xunfeiSparkProvider();
    expect(credentialFields.map((f) => f.key)).toEqual(["appId", "apiKey", "apiSecret", "apiPassword"]);
    expect(validate!({ apiPassword: "p" })).toEqual([]);
    expect(validate!({ appId: "a", apiKey: "k", apiSecret: "s" })).toEqual([]);
    expect(validate!({})).toEqual([{ field: "apiPassword", messageKey: "errors.model.fieldRequired", params: { field: "apiPassword" } }]);
    expect(validate!({ appId: "a" }).map((p) => p.field)).toEqual(["apiKey", "apiSecret"]);
  });

  it("streams chat from the HTTP endpoint with the API password as bearer and the console name mapped to the API model", async () => {
    const chat = provider().create("chat", { modelName: "Spark-Max", credentials });
    const events = await collect(chat.stream([{ role: "system", content: "你是助手" }, { role: "user", content: "你是谁" }], { temperature: 0.5, maxTokens: 256 }));
    const request = server.last();
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBe(`Bearer ${API_PASSWORD}`);
    expect(request.json).toEqual({
      model: "generalv3.5",
      messages: [
        { role: "system", content: "你是助手" },
        { role: "user", content: "你是谁" },
      ],
      stream: true,
      temperature: 0.5,
      max_tokens: 256,
    });
    expect(events).toEqual([
      ...DELTAS.map((text) => ({ type: "delta", text })),
      { type: "finish", reason: "stop" },
      { type: "usage", usage: { promptTokens: 4, completionTokens: 9, totalTokens: 13 } },
    ]);
  });

  it("maps chat failures: a bad password, Spark's in-body codes (unknown model, daily limit), time-outs and the network", async () => {
    const ask = (model = "Spark-Max", creds: Record<string, string> = credentials, p = provider()) => completeChat(p.create("chat", { modelName: model, credentials: creds }), [{ role: "user", content: "hi" }]);
    await expect(ask("Spark-Max", { ...credentials, apiPassword: "wrong" })).rejects.toMatchObject({ reason: "auth", params: { provider: "XunFei Spark" } });
    await expect(ask("Spark-Max", { appId: APP_ID, apiKey: API_KEY, apiSecret: API_SECRET })).rejects.toMatchObject({ reason: "auth", params: { detail: expect.stringContaining("API password") } });
    await expect(ask("Spark-Nonexistent")).rejects.toMatchObject({ reason: "notFound", params: { detail: "10404: model Spark-Nonexistent does not exist" } });
    server.handle((_, response) => writeSlowly(response, 200, { "content-type": "text/event-stream" }, sseBody([{ data: { code: 11201, message: "AppIdNoAuthError:(11201)auth check failed: daily limit exceeded", sid: "c" } }])));
    await expect(ask()).rejects.toMatchObject({ reason: "quota", params: { detail: expect.stringContaining("11201") } });
    server.handle(neverAnswer);
    await expect(ask("Spark-Max", credentials, provider(200))).rejects.toMatchObject({ reason: "timeout" });
    const offline = xunfeiSparkProvider({ chatBaseUrl: await unreachableUrl() });
    await expect(ask("Spark-Max", credentials, offline)).rejects.toMatchObject({ reason: "network" });
  });

  it("synthesizes speech over the signed TTS WebSocket and streams the MP3 pieces as they come", async () => {
    const tts = provider().create("tts", { modelName: "xiaoyan", credentials });
    const speech = await tts.synthesize("你好，世界");
    expect(speech.mimeType).toBe("audio/mpeg");
    expect(Buffer.concat(await collect(speech.audio))).toEqual(Buffer.concat(AUDIO));
    const upgrade = server.last();
    expect(upgrade.path).toBe("/v2/tts");
    expect(upgrade.query.get("host")).toBe(new URL(server.url).host);
    expect(verifyXfyunUrl(upgrade, () => API_SECRET)).toMatchObject({ ok: true, keyId: API_KEY });
    expect(received).toEqual([
      { common: { app_id: APP_ID }, business: { aue: "lame", sfl: 1, auf: "audio/L16;rate=16000", vcn: "xiaoyan", tte: "UTF8" }, data: { status: 2, text: Buffer.from("你好，世界").toString("base64") } },
    ]);
  });

  it("signs WebSocket addresses as iFlytek documents it", () => {
    const url = new URL(signedSparkUrl("wss://iat-api.xfyun.cn/v2/iat", "keyxxxxxxxx8ee279348519exxxxxxxx", "secretxxxxxxxx2df7900c09xxxxxxxx", new Date("2019-07-10T07:35:43Z")));
    expect(url.searchParams.get("date")).toBe("Wed, 10 Jul 2019 07:35:43 GMT");
    expect(url.searchParams.get("host")).toBe("iat-api.xfyun.cn");
    expect(Buffer.from(url.searchParams.get("authorization")!, "base64").toString()).toBe(
      'api_key="keyxxxxxxxx8ee279348519exxxxxxxx", algorithm="hmac-sha256", headers="host date request-line", signature="Hp3Ty4ZkSBmL8jKyOLpQiv9Sr5nvmeYEH7WsL/ZO2Jg="',
    );
  });

  it("maps TTS failures: a refused signature, an unknown app id, an unlicensed voice, silence and the network", async () => {
    const speak = (creds: Record<string, string> = credentials, voice?: string, p = provider()) => p.create("tts", { modelName: "xiaoyan", credentials: creds }).synthesize("hi", { voice });
    await expect(speak({ ...credentials, apiSecret: "wrong" })).rejects.toMatchObject({ reason: "auth", params: { detail: "HTTP 403: HMAC signature does not match" } });
    await expect(speak({ ...credentials, apiKey: "other" })).rejects.toMatchObject({ reason: "auth", params: { detail: expect.stringContaining("HTTP 401") } });
    await expect(speak({ ...credentials, appId: "00000000" })).rejects.toMatchObject({ reason: "auth", params: { detail: "10313: appid cannot be empty or invalid" } });
    await expect(speak(credentials, "x4_unlicensed")).rejects.toMatchObject({ reason: "auth", params: { detail: expect.stringContaining("11200") } });
    expect(received.at(-1)?.business.vcn).toBe("x4_unlicensed");
    await expect(speak({ apiPassword: API_PASSWORD })).rejects.toMatchObject({ reason: "auth", params: { detail: expect.stringContaining("app id, API key and API secret") } });
    server.handleUpgrades(ttsUpgrades(wss, { hang: true }));
    await expect(speak(credentials, undefined, provider(200))).rejects.toMatchObject({ reason: "timeout" });
    const offline = xunfeiSparkProvider({ ttsUrl: `${(await unreachableUrl()).replace("http", "ws")}/v2/tts` });
    await expect(speak(credentials, undefined, offline)).rejects.toMatchObject({ reason: "network", params: { detail: "ECONNREFUSED" } });
  });

  it("opens its speech WebSocket through the outbound guard", async () => {
    const upgradesBefore = server.requests.length;
    const metadata = xunfeiSparkProvider({ ttsUrl: "ws://169.254.169.254/v2/tts" }).create("tts", { modelName: "xiaoyan", credentials });
    await expect(metadata.synthesize("你好")).rejects.toMatchObject({ reason: "addressRefused", params: { detail: "169.254.169.254" } });
    const byName = xunfeiSparkProvider({ ttsUrl: `ws://tts.test:${new URL(server.url).port}/v2/tts` });
    const metadataByName = { ...modelOutboundPolicy(true), resolve: async () => ["::ffff:169.254.169.254"] };
    const tts = byName.create("tts", { modelName: "xiaoyan", credentials, outbound: metadataByName });
    await expect(tts.synthesize("你好")).rejects.toMatchObject({ reason: "addressRefused", params: { detail: "tts.test" } });
    expect(server.requests.length).toBe(upgradesBefore);
  });
});
