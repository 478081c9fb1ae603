import crypto from "node:crypto";
import type { RecordedRequest } from "./vendor-servers";

/**
 * Verifiers for the request signatures of cloud vendors, written from their published algorithms with
 * node:crypto only, so that a test server checks a client's signing independently of the client's code.
 */

const sha256Hex = (data: string | Buffer) => crypto.createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => crypto.createHmac("sha256", key).update(data).digest();

/** RFC 3986 encoding as AWS wants it: everything but unreserved characters. */
function awsEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function header(request: RecordedRequest, name: string): string {
  // Over HTTP/2 the host travels as the :authority pseudo-header (RFC 9113 §8.3.1).
  const value = request.headers[name] ?? (name === "host" ? request.headers[":authority"] : undefined);
  return (Array.isArray(value) ? value.join(",") : (value ?? "")).trim().replace(/\s+/g, " ");
}

export type SignatureCheck = { ok: true; keyId: string; scope: string[] } | { ok: false; reason: string };

/**
 * AWS Signature Version 4 (docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html) for
 * services other than S3: the path as sent is encoded once more, query pairs are sorted, and the
 * payload hash is the SHA-256 of the body unless x-amz-content-sha256 gives it.
 */
export function verifySigV4(request: RecordedRequest, secretFor: (keyId: string) => string | undefined): SignatureCheck {
  const authorization = header(request, "authorization");
  const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;:-]+), ?Signature=([0-9a-f]{64})$/.exec(authorization);
  if (!match) return { ok: false, reason: `not a SigV4 Authorization header: ${authorization}` };
  const [, keyId, date, region, service, signedHeaders, signature] = match;
  const secret = secretFor(keyId);
  if (secret === undefined) return { ok: false, reason: `unknown access key ${keyId}` };
  const amzDate = header(request, "x-amz-date");
  if (!amzDate.startsWith(date)) return { ok: false, reason: "x-amz-date does not match the credential scope date" };
  const names = signedHeaders.split(";");
  // The AWS SDK's HTTP/2 handler signs the :authority pseudo-header in place of host.
  if (!(names.includes("host") || names.includes(":authority")) || !names.includes("x-amz-date")) return { ok: false, reason: "host and x-amz-date must be signed" };

  const [rawPath, rawQuery = ""] = request.url.split("?");
  const canonicalPath = rawPath.split("/").map(awsEncode).join("/");
  const canonicalQuery = rawQuery
    .split("&")
    .filter(Boolean)
    .map((pair) => pair.split("=").map((part) => awsEncode(decodeURIComponent(part.replace(/\+/g, " ")))))
    .sort(([a, x = ""], [b, y = ""]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v = ""]) => `${k}=${v}`)
    .join("&");
  const canonicalHeaders = names.map((name) => `${name}:${header(request, name)}\n`).join("");
  const payloadHash = header(request, "x-amz-content-sha256") || sha256Hex(request.body);
  const canonicalRequest = [request.method, canonicalPath, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join("\n");
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256Hex(canonicalRequest)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), "aws4_request");
  const expected = crypto.createHmac("sha256", key).update(stringToSign).digest("hex");
  if (expected !== signature) return { ok: false, reason: "The request signature we calculated does not match the signature you provided." };
  return { ok: true, keyId, scope: [date, region, service] };
}

/**
 * Tencent Cloud API 3.0 signature TC3-HMAC-SHA256 (cloud.tencent.com/document/api/213/30654): the same
 * shape as SigV4 with a `TC3` key prefix, `tc3_request`, and a Unix-seconds timestamp in X-TC-Timestamp.
 */
export function verifyTc3(request: RecordedRequest, secretFor: (secretId: string) => string | undefined, nowSeconds = Math.floor(Date.now() / 1000)): SignatureCheck {
  const authorization = header(request, "authorization");
  const match = /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([a-z0-9]+)\/tc3_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(authorization);
  if (!match) return { ok: false, reason: `not a TC3 Authorization header: ${authorization}` };
  const [, secretId, date, service, signedHeaders, signature] = match;
  const secret = secretFor(secretId);
  if (secret === undefined) return { ok: false, reason: `SecretId ${secretId} not found` };
  const timestamp = Number(header(request, "x-tc-timestamp"));
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > 300) return { ok: false, reason: "signature expired" };
  if (new Date(timestamp * 1000).toISOString().slice(0, 10) !== date) return { ok: false, reason: "credential date is not the UTC date of X-TC-Timestamp" };
  const names = signedHeaders.split(";");
  if (!names.includes("content-type") || !names.includes("host")) return { ok: false, reason: "content-type and host must be signed" };

  const [rawPath, rawQuery = ""] = request.url.split("?");
  // Header values enter the canonical request lower-cased (the documented example has x-tc-action:describeinstances).
  const canonicalHeaders = names.map((name) => `${name}:${header(request, name).toLowerCase()}\n`).join("");
  const canonicalRequest = [request.method, rawPath, rawQuery, canonicalHeaders, signedHeaders, sha256Hex(request.body)].join("\n");
  const stringToSign = ["TC3-HMAC-SHA256", String(timestamp), `${date}/${service}/tc3_request`, sha256Hex(canonicalRequest)].join("\n");
  const key = hmac(hmac(hmac(`TC3${secret}`, date), service), "tc3_request");
  const expected = crypto.createHmac("sha256", key).update(stringToSign).digest("hex");
  if (expected !== signature) return { ok: false, reason: "The provided credentials could not be validated." };
  return { ok: true, keyId: secretId, scope: [date, service] };
}

export interface VerifiedJwt {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
}

/** Checks an RS256 JSON Web Token against a public key; returns its header and claims, or the reason it fails. */
export function verifyRs256Jwt(token: string, publicKey: crypto.KeyObject): VerifiedJwt | { error: string } {
  const parts = token.split(".");
  if (parts.length !== 3) return { error: "not a JWT" };
  const [encodedHeader, encodedClaims, encodedSignature] = parts;
  const decode = (part: string) => JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>;
  const jwtHeader = decode(encodedHeader);
  if (jwtHeader.alg !== "RS256") return { error: `alg ${String(jwtHeader.alg)}` };
  const valid = crypto.verify("RSA-SHA256", Buffer.from(`${encodedHeader}.${encodedClaims}`), publicKey, Buffer.from(encodedSignature, "base64url"));
  if (!valid) return { error: "Invalid JWT Signature." };
  return { header: jwtHeader, claims: decode(encodedClaims) };
}

/**
 * iFlytek's signed WebSocket address (www.xfyun.cn/doc/tts/online_tts/API.html, "接口鉴权"): the query
 * carries date, host and base64(`api_key="…", algorithm="hmac-sha256", headers="host date request-line",
 * signature="…"`), the signature being base64 HMAC-SHA256 with the API secret over
 * "host: …\ndate: …\nGET /path HTTP/1.1". The date may be at most 300 s off.
 */
export function verifyXfyunUrl(request: RecordedRequest, secretFor: (apiKey: string) => string | undefined, now = Date.now()): SignatureCheck {
  const date = request.query.get("date") ?? "";
  const encoded = request.query.get("authorization") ?? "";
  const fields = Object.fromEntries([...Buffer.from(encoded, "base64").toString("utf8").matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  if (!fields.api_key || fields.algorithm !== "hmac-sha256" || fields.headers !== "host date request-line") return { ok: false, reason: "HMAC authorization is malformed" };
  const secret = secretFor(fields.api_key);
  if (secret === undefined) return { ok: false, reason: `apikey not found: ${fields.api_key}` };
  const time = Date.parse(date);
  if (Number.isNaN(time) || Math.abs(now - time) > 300_000) return { ok: false, reason: "HMAC signature cannot be verified, a valid date or x-date header is required for HMAC Authentication" };
  const origin = `host: ${header(request, "host")}\ndate: ${date}\n${request.method} ${request.path} HTTP/1.1`;
  const expected = crypto.createHmac("sha256", secret).update(origin).digest("base64");
  if (expected !== fields.signature) return { ok: false, reason: "HMAC signature does not match" };
  return { ok: true, keyId: fields.api_key, scope: [] };
}
