import type http from "node:http";
import { neverAnswer, sendJson, startVendorServer, unreachableUrl, type RecordedRequest, type VendorServer } from "../../testing/vendor-servers";
import { verifyTc3 } from "../../testing/vendor-signatures";
import { tencentCloudProvider, voiceFormat } from "./tencent-cloud";

const SECRET_ID = "AKIDasrTEST0000000000000000000000001";
const SECRET_KEY = "asrSecretKeyTEST000000000000000001";
const WAV = Buffer.concat([Buffer.from("RIFF\u0000\u0000\u0000\u0000WAVEfmt ", "latin1"), Buffer.alloc(64, 7)]);

function tencentError(response: http.ServerResponse, Code: string, Message: string) {
  sendJson(response, 200, { Response: { Error: { Code, Message }, RequestId: "req-asr" } });
}

/** asr.tencentcloudapi.com: TC3-signed SentenceRecognition with inline base64 audio. */
function asrHandler(request: RecordedRequest, response: http.ServerResponse) {
  const check = verifyTc3(request, (id) => (id === SECRET_ID ? SECRET_KEY : undefined));
  if (!check.ok) return tencentError(response, "AuthFailure.SignatureFailure", check.reason);
  const body = request.json as { EngSerViceType: string; Data: string; DataLen: number };
  if (!["16k_zh", "16k_en"].includes(body.EngSerViceType)) return tencentError(response, "InvalidParameterValue.ErrorInvalidEngSerViceType", `EngSerViceType ${body.EngSerViceType} is invalid`);
  if (Buffer.from(body.Data, "base64").length !== body.DataLen) return tencentError(response, "InvalidParameter.ErrorInvalidDataLen", "DataLen does not match Data");
  return sendJson(response, 200, { Response: { Result: "腾讯云语音识别。", AudioDuration: 2090, WordSize: 0, WordList: null, RequestId: "req-asr" } });
}

describe("Tencent Cloud speech recognition", () => {
  let server: VendorServer;
  const credentials = { appId: "1300000000", secretId: SECRET_ID, secretKey: SECRET_KEY };
  const transcribe = (modelName = "16k_zh", creds: Record<string, string> = credentials, timeoutMs = 2_000) =>
    tencentCloudProvider({ endpoint: server.url, timeoutMs }).create("sequence2txt", { modelName, credentials: creds }).transcribe({ data: WAV, mimeType: "audio/wav", fileName: "hello.wav" });

  beforeAll(async () => {
    server = await startVendorServer(asrHandler);
  });
  afterAll(() => server.close());
  afterEach(() => server.handle(asrHandler));

  it("asks for app id, secret id and secret key", () => {
    expect(tencentCloudProvider().credentialFields.map((f) => [f.key, f.type, f.required])).toEqual([
      ["appId", "string", false],
      ["secretId", "secret", true],
      ["secretKey", "secret", true],
    ]);
  });

  it("sends the audio inline to SentenceRecognition, signed for the asr service, and returns the text", async () => {
    await expect(transcribe()).resolves.toEqual({ text: "腾讯云语音识别。" });
    const request = server.last();
    expect(request.headers["x-tc-action"]).toBe("SentenceRecognition");
    expect(request.headers["x-tc-version"]).toBe("2019-06-14");
    expect(verifyTc3(request, () => SECRET_KEY)).toMatchObject({ ok: true, scope: [expect.any(String), "asr"] });
    expect(request.json).toEqual({ EngSerViceType: "16k_zh", SourceType: 1, VoiceFormat: "wav", Data: WAV.toString("base64"), DataLen: WAV.length, ProjectId: 0, SubServiceType: 2 });
  });

  it("names the voice format from the file name or the MIME type, and refuses what Tencent cannot read", () => {
    expect(voiceFormat({ data: WAV, mimeType: "application/octet-stream", fileName: "a.m4a" })).toBe("m4a");
    expect(voiceFormat({ data: WAV, mimeType: "audio/mpeg", fileName: "upload" })).toBe("mp3");
    expect(voiceFormat({ data: WAV, mimeType: "audio/ogg; codecs=opus", fileName: "voice" })).toBe("ogg-opus");
    expect(() => voiceFormat({ data: WAV, mimeType: "video/webm", fileName: "clip.webm" })).toThrow(/not an audio format/);
  });

  it("refuses audio beyond the one-sentence limit before calling", async () => {
    const before = server.requests.length;
    const big = { data: Buffer.alloc(3 * 1024 * 1024 + 1), mimeType: "audio/wav", fileName: "long.wav" };
    await expect(tencentCloudProvider({ endpoint: server.url }).create("sequence2txt", { modelName: "16k_zh", credentials }).transcribe(big)).rejects.toMatchObject({ reason: "badRequest" });
    expect(server.requests.length).toBe(before);
  });

  it("maps a wrong key, an unknown engine, arrears, time-outs and an unreachable endpoint", async () => {
    await expect(transcribe("16k_zh", { ...credentials, secretKey: "wrong" })).rejects.toMatchObject({ reason: "auth", params: { provider: "Tencent Cloud" } });
    await expect(transcribe("16k_xx")).rejects.toMatchObject({ reason: "notFound", params: { detail: expect.stringContaining("EngSerViceType") } });
    server.handle((_, response) => tencentError(response, "FailedOperation.ServiceIsolate", "账号因为欠费停止服务，请在腾讯云账户充值。"));
    await expect(transcribe()).rejects.toMatchObject({ reason: "quota" });
    server.handle(neverAnswer);
    await expect(transcribe("16k_zh", credentials, 200)).rejects.toMatchObject({ reason: "timeout" });
    const offline = tencentCloudProvider({ endpoint: await unreachableUrl() }).create("sequence2txt", { modelName: "16k_zh", credentials });
    await expect(offline.transcribe({ data: WAV, mimeType: "audio/wav", fileName: "a.wav" })).rejects.toMatchObject({ reason: "network" });
  });
});
