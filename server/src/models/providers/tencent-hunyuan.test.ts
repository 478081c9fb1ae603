import type http from "node:http";
import { completeChat } from "../model-types";
import { collect, neverAnswer, sendJson, sseBody, startVendorServer, unreachableUrl, writeSlowly, type RecordedRequest, type VendorServer } from "../../testing/vendor-servers";
import { verifyTc3 } from "../../testing/vendor-signatures";
import { tencentFailure } from "./tencent-cloud-api";
import { tencentHunyuanProvider } from "./tencent-hunyuan";

const SECRET_ID = "AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE";
const SECRET_KEY = "Gu5t9xGARNpq86cd98joQYCN3EXAMPLE";
const DELTAS = ["你好", "，我是", "腾讯混元", "大模型。"];

function tencentError(response: http.ServerResponse, Code: string, Message: string) {
  // Tencent Cloud API 3.0 answers errors with HTTP 200.
  sendJson(response, 200, { Response: { Error: { Code, Message }, RequestId: "8c5e6f1a-req" } });
}

/** hunyuan.tencentcloudapi.com: TC3-signed ChatCompletions, answered as SSE. */
function hunyuanHandler(request: RecordedRequest, response: http.ServerResponse) {
  const check = verifyTc3(request, (id) => (id === SECRET_ID ? SECRET_KEY : undefined));
  if (!check.ok) {
    return tencentError(response, check.reason.includes("not found") ? "AuthFailure.SecretIdNotFound" : "AuthFailure.SignatureFailure", check.reason);
  }
  if (request.headers["x-tc-action"] !== "ChatCompletions" || request.headers["x-tc-version"] !== "2023-09-01") return tencentError(response, "InvalidAction", "unknown action");
  if (!["hunyuan-pro", "hunyuan-vision"].includes(request.json.Model)) return tencentError(response, "InvalidParameterValue.Model", `模型不存在: ${request.json.Model}`);
  const chunks = DELTAS.map((Content, i) => ({
    Note: "以上内容为AI生成，不代表开发者立场，请勿删除或修改本标记",
    Choices: [{ Delta: { Role: "assistant", Content }, FinishReason: i === DELTAS.length - 1 ? "stop" : "" }],
    Created: 1_717_000_000,
    Id: "a1b2c3",
    Usage: { PromptTokens: 8, CompletionTokens: i + 2, TotalTokens: 10 + i },
  }));
  return writeSlowly(response, 200, { "content-type": "text/event-stream" }, sseBody(chunks.map((data) => ({ data }))), { pieceSize: 5 });
}

describe("Tencent Hunyuan", () => {
  let server: VendorServer;
  const credentials = { secretId: SECRET_ID, secretKey: SECRET_KEY };
  const provider = (timeoutMs = 2_000) => tencentHunyuanProvider({ endpoint: server.url, timeoutMs });

  beforeAll(async () => {
    server = await startVendorServer(hunyuanHandler);
  });
  afterAll(() => server.close());
  afterEach(() => server.handle(hunyuanHandler));

  it("signs ChatCompletions with TC3-HMAC-SHA256 and streams the Chinese answer split mid-character", async () => {
    const chat = provider().create("chat", { modelName: "hunyuan-pro", credentials });
    const events = await collect(chat.stream([{ role: "system", content: "简短回答" }, { role: "user", content: "你是谁？" }], { temperature: 0.5, topP: 0.9 }));
    const request = server.last();
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/");
    expect(request.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(request.headers["x-tc-action"]).toBe("ChatCompletions");
    expect(request.headers["x-tc-version"]).toBe("2023-09-01");
    expect(request.headers.authorization).toMatch(new RegExp(`^TC3-HMAC-SHA256 Credential=${SECRET_ID}/\\d{4}-\\d{2}-\\d{2}/hunyuan/tc3_request, SignedHeaders=content-type;host;x-tc-action, Signature=[0-9a-f]{64}$`));
    expect(verifyTc3(request, () => SECRET_KEY)).toMatchObject({ ok: true, scope: [expect.any(String), "hunyuan"] });
    expect(request.json).toEqual({
      Model: "hunyuan-pro",
      Messages: [
        { Role: "system", Content: "简短回答" },
        { Role: "user", Content: "你是谁？" },
      ],
      Stream: true,
      Temperature: 0.5,
      TopP: 0.9,
    });
    expect(events).toEqual([
      ...DELTAS.map((text) => ({ type: "delta", text })),
      { type: "finish", reason: "stop" },
      { type: "usage", usage: { promptTokens: 8, completionTokens: 5, totalTokens: 13 } },
    ]);
  });

  it("describes an image with hunyuan-vision through Contents parts", async () => {
    const jpeg = Buffer.from("ffd8ffe000104a464946", "hex");
    const result = await provider().create("img2txt", { modelName: "hunyuan-vision", credentials }).describe({ data: jpeg, mimeType: "image/jpeg" }, { prompt: "描述图片" });
    expect(result.text).toBe(DELTAS.join(""));
    expect(server.last().json.Messages).toEqual([
      {
        Role: "user",
        Contents: [
          { Type: "image_url", ImageUrl: { Url: `data:image/jpeg;base64,${jpeg.toString("base64")}` } },
          { Type: "text", Text: "描述图片" },
        ],
      },
    ]);
  });

  it("reads refusals from the Response.Error of an HTTP 200 answer: signature, unknown key, unknown model, limits", async () => {
    const ask = (model = "hunyuan-pro", creds = credentials) => completeChat(provider().create("chat", { modelName: model, credentials: creds }), [{ role: "user", content: "你好" }]);
    await expect(ask("hunyuan-pro", { ...credentials, secretKey: "wrong" })).rejects.toMatchObject({
      reason: "auth",
      params: { provider: "Tencent Hunyuan", detail: expect.stringMatching(/^AuthFailure\.SignatureFailure: /) },
    });
    await expect(ask("hunyuan-pro", { ...credentials, secretId: "AKIDunknown" })).rejects.toMatchObject({ reason: "auth", params: { detail: expect.stringMatching(/^AuthFailure\.SecretIdNotFound/) } });
    await expect(ask("hunyuan-ultra-9")).rejects.toMatchObject({ reason: "notFound", params: { detail: "InvalidParameterValue.Model: 模型不存在: hunyuan-ultra-9" } });
    server.handle((_, response) => tencentError(response, "RequestLimitExceeded", "请求的次数超过了频率限制。"));
    await expect(ask()).rejects.toMatchObject({ reason: "quota" });
    server.handle((_, response) => tencentError(response, "ResourceUnavailable.InArrears", "账号已欠费。"));
    await expect(ask()).rejects.toMatchObject({ reason: "quota" });
  });

  it("fails a stream that reports an error after it started", async () => {
    server.handle((_, response) =>
      writeSlowly(response, 200, { "content-type": "text/event-stream" }, sseBody([
        { data: { Choices: [{ Delta: { Content: "半" }, FinishReason: "" }] } },
        { data: { ErrorMsg: { Code: 2001, Msg: "服务内部错误" }, Choices: [] } },
      ])),
    );
    const chat = provider().create("chat", { modelName: "hunyuan-pro", credentials });
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const event of chat.stream([{ role: "user", content: "x" }])) if (event.type === "delta") seen.push(event.text);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(["半"]);
    expect(failure).toMatchObject({ reason: "badRequest", params: { detail: "2001: 服务内部错误" } });
  });

  it("times out and reports an unreachable endpoint", async () => {
    server.handle(neverAnswer);
    await expect(completeChat(provider(200).create("chat", { modelName: "hunyuan-pro", credentials }), [{ role: "user", content: "x" }])).rejects.toMatchObject({ reason: "timeout" });
    const offline = tencentHunyuanProvider({ endpoint: await unreachableUrl() });
    await expect(completeChat(offline.create("chat", { modelName: "hunyuan-pro", credentials }), [{ role: "user", content: "x" }])).rejects.toMatchObject({ reason: "network" });
  });

  it("maps Tencent error code families", () => {
    const reason = (Code: string) => tencentFailure("T", { Code, Message: "m" }).reason;
    expect(reason("AuthFailure.SignatureExpire")).toBe("auth");
    expect(reason("UnauthorizedOperation")).toBe("auth");
    expect(reason("LimitExceeded")).toBe("quota");
    expect(reason("FailedOperation.ResourcePackExhausted")).toBe("quota");
    expect(reason("FailedOperation.EngineRequestTimeout")).toBe("timeout");
    expect(reason("InternalError")).toBe("unavailable");
    expect(reason("InvalidParameter")).toBe("badRequest");
  });
});
