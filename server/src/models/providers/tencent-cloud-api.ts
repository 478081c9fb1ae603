import crypto from "node:crypto";
import type { OutboundPolicy } from "../../platform/outbound";
import { callProvider, ModelCallError, notJson, type ModelFailure } from "../http";

/**
 * Tencent Cloud API 3.0, as Hunyuan and the speech services speak it: a JSON POST to `/` of the
 * service's host, the action and version in X-TC-* headers, signed with TC3-HMAC-SHA256
 * (cloud.tencent.com/document/api/213/30654). Failures come back as HTTP 200 with
 * `{"Response":{"Error":{"Code","Message"}}}`, so the status alone says nothing.
 */
export interface TencentApiCall {
  provider: string;
  /** https://hunyuan.tencentcloudapi.com, https://asr.tencentcloudapi.com, or a test server. */
  endpoint: string;
  /** The signing service name: the first label of the host (hunyuan, asr). */
  service: string;
  action: string;
  version: string;
  region?: string;
  secretId: string;
  secretKey: string;
  payload: unknown;
  timeoutMs?: number;
  signal?: AbortSignal;
  outbound: OutboundPolicy | undefined;
}

const CONTENT_TYPE = "application/json; charset=utf-8";

const sha256Hex = (data: string) => crypto.createHash("sha256").update(data, "utf8").digest("hex");
const hmac = (key: string | Buffer, data: string) => crypto.createHmac("sha256", key).update(data, "utf8").digest();

/** The Authorization header of a TC3-HMAC-SHA256 request; header values enter the canonical request lower-cased. */
export function tc3Authorization(input: { secretId: string; secretKey: string; service: string; host: string; action: string; body: string; timestamp: number }): string {
  const date = new Date(input.timestamp * 1000).toISOString().slice(0, 10);
  const signedHeaders = "content-type;host;x-tc-action";
  const canonicalHeaders = `content-type:${CONTENT_TYPE}\nhost:${input.host}\nx-tc-action:${input.action.toLowerCase()}\n`;
  const canonicalRequest = ["POST", "/", "", canonicalHeaders, signedHeaders, sha256Hex(input.body)].join("\n");
  const scope = `${date}/${input.service}/tc3_request`;
  const stringToSign = ["TC3-HMAC-SHA256", String(input.timestamp), scope, sha256Hex(canonicalRequest)].join("\n");
  const key = hmac(hmac(hmac(`TC3${input.secretKey}`, date), input.service), "tc3_request");
  const signature = crypto.createHmac("sha256", key).update(stringToSign, "utf8").digest("hex");
  return `TC3-HMAC-SHA256 Credential=${input.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

/** Signs and sends one call; the response is returned as it is (JSON, or SSE for streaming actions). */
export function callTencentApi(call: TencentApiCall): Promise<Response> {
  const body = JSON.stringify(call.payload);
  const timestamp = Math.floor(Date.now() / 1000);
  const host = new URL(call.endpoint).host;
  return callProvider({
    provider: call.provider,
    url: call.endpoint,
    outbound: call.outbound,
    headers: {
      "content-type": CONTENT_TYPE,
      authorization: tc3Authorization({ secretId: call.secretId, secretKey: call.secretKey, service: call.service, host, action: call.action, body, timestamp }),
      "x-tc-action": call.action,
      "x-tc-version": call.version,
      "x-tc-timestamp": String(timestamp),
      ...(call.region ? { "x-tc-region": call.region } : {}),
    },
    body,
    timeoutMs: call.timeoutMs,
    signal: call.signal,
  });
}

export interface TencentError {
  Code: string;
  Message: string;
}

/** The `Response` object of a JSON answer, or the ModelCallError its `Error` stands for. */
export async function tencentApiJson<T>(call: TencentApiCall): Promise<T> {
  const response = await callTencentApi(call);
  return readTencentResponse<T>(call.provider, await response.text());
}

export function readTencentResponse<T>(provider: string, text: string): T {
  let parsed: { Response?: T & { Error?: TencentError } };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    throw notJson(provider);
  }
  const answer = parsed.Response;
  if (!answer) throw new ModelCallError("badRequest", provider, "the answer has no Response");
  if (answer.Error) throw tencentFailure(provider, answer.Error);
  return answer;
}

/**
 * Tencent's error codes by family (cloud.tencent.com/document/api/1729/101840, …/1093/35640): AuthFailure.*
 * for keys and signatures, LimitExceeded and arrears for quota, and so on.
 */
export function tencentFailure(provider: string, error: TencentError): ModelCallError {
  const code = error.Code ?? "";
  let reason: ModelFailure = "badRequest";
  if (/^(AuthFailure|UnauthorizedOperation)|UserUnAuthError|CheckAuthInfoFailed|ServiceNotActivated|NotActivated/i.test(code)) reason = "auth";
  else if (/^(RequestLimitExceeded|LimitExceeded)|ResourcePackExhausted|InArrears|LowBalance|ServiceIsolate|ServiceStop|ResourceInsufficient/i.test(code)) reason = "quota";
  else if (/timeout/i.test(code)) reason = "timeout";
  else if (/^ResourceNotFound|^InvalidParameterValue\.Model$|EngSerViceType|EngineType/i.test(code)) reason = "notFound";
  else if (/^(InternalError|ResourceUnavailable)|ServerError/i.test(code)) reason = "unavailable";
  return new ModelCallError(reason, provider, `${code}: ${error.Message}`);
}
