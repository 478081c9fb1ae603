import crypto from "node:crypto";
import { verifyRs256Jwt, verifySigV4, verifyTc3, verifyXfyunUrl } from "./vendor-signatures";
import type { RecordedRequest } from "./vendor-servers";

/** The verifiers the vendor test servers use are themselves checked against the vendors' published examples. */

function request(method: string, url: string, headers: Record<string, string>, body = ""): RecordedRequest {
  return { method, url, path: url.split("?")[0], query: new URLSearchParams(url.split("?")[1] ?? ""), headers, body: Buffer.from(body), json: undefined };
}

describe("signature verifiers of the vendor test servers", () => {
  // AWS's SigV4 test suite (aws-sig-v4-test-suite): AKIDEXAMPLE, 2015-08-30T12:36:00Z, us-east-1, service "service".
  const awsSecret = (id: string) => (id === "AKIDEXAMPLE" ? "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" : undefined);
  const awsAuthorization = (signature: string) =>
    `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=${signature}`;
  const awsHeaders = (signature: string) => ({ host: "example.amazonaws.com", "x-amz-date": "20150830T123600Z", authorization: awsAuthorization(signature) });

  it.each([
    ["get-vanilla", "GET", "/", "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"],
    ["post-vanilla", "POST", "/", "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"],
    ["get-vanilla-query-order-key-case", "GET", "/?Param2=value2&Param1=value1", "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"],
  ])("SigV4 accepts the AWS test-suite case %s and refuses it altered", (_, method, url, signature) => {
    expect(verifySigV4(request(method, url, awsHeaders(signature)), awsSecret)).toEqual({ ok: true, keyId: "AKIDEXAMPLE", scope: ["20150830", "us-east-1", "service"] });
    expect(verifySigV4(request(method, url, awsHeaders(signature), "tampered body"), awsSecret)).toMatchObject({ ok: false });
  });

  it("TC3 accepts Tencent Cloud's documented DescribeInstances example and refuses it altered", () => {
    const body = '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}';
    const headers = {
      authorization:
        "TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE/2019-02-25/cvm/tc3_request, SignedHeaders=content-type;host, Signature=72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168",
      "content-type": "application/json; charset=utf-8",
      host: "cvm.tencentcloudapi.com",
      "x-tc-action": "DescribeInstances",
      "x-tc-timestamp": "1551113065",
      "x-tc-version": "2017-03-12",
      "x-tc-region": "ap-guangzhou",
    };
    const secret = () => "Gu5t9xGARNpq86cd98joQYCN3EXAMPLE";
    expect(verifyTc3(request("POST", "/", headers, body), secret, 1551113065)).toEqual({ ok: true, keyId: "AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE", scope: ["2019-02-25", "cvm"] });
    expect(verifyTc3(request("POST", "/", headers, body.replace("1", "2")), secret, 1551113065)).toMatchObject({ ok: false });
    expect(verifyTc3(request("POST", "/", headers, body), secret, 1551113065 + 600)).toEqual({ ok: false, reason: "signature expired" });
  });

  it("iFlytek accepts its documented WebSocket signature (APISecret secretxxxxxxxx2df7900c09xxxxxxxx, 10 Jul 2019) and refuses it altered", () => {
    const date = "Wed, 10 Jul 2019 07:35:43 GMT";
    const authorization = (signature: string) =>
      Buffer.from(`api_key="keyxxxxxxxx8ee279348519exxxxxxxx", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`).toString("base64");
    const url = (signature: string) => `/v2/iat?${new URLSearchParams({ authorization: authorization(signature), date, host: "iat-api.xfyun.cn" })}`;
    const secret = () => "secretxxxxxxxx2df7900c09xxxxxxxx";
    const now = Date.parse(date);
    expect(verifyXfyunUrl(request("GET", url("Hp3Ty4ZkSBmL8jKyOLpQiv9Sr5nvmeYEH7WsL/ZO2Jg="), { host: "iat-api.xfyun.cn" }), secret, now)).toMatchObject({ ok: true });
    expect(verifyXfyunUrl(request("GET", url("Hp3Ty4ZkSBmL8jKyOLpQiv9Sr5nvmeYEH7WsL/ZO2Jg="), { host: "tts-api.xfyun.cn" }), secret, now)).toMatchObject({ ok: false });
    expect(verifyXfyunUrl(request("GET", url("Hp3Ty4ZkSBmL8jKyOLpQiv9Sr5nvmeYEH7WsL/ZO2Jg="), { host: "iat-api.xfyun.cn" }), secret, now + 301_000)).toMatchObject({ ok: false });
  });

  it("RS256 JWTs verify with the matching public key only", () => {
    const { privateKey, publicKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
    const other = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey;
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const unsigned = `${part({ alg: "RS256", typ: "JWT" })}.${part({ iss: "a@b", exp: 1 })}`;
    const token = `${unsigned}.${crypto.sign("RSA-SHA256", Buffer.from(unsigned), privateKey).toString("base64url")}`;
    expect(verifyRs256Jwt(token, publicKey)).toEqual({ header: { alg: "RS256", typ: "JWT" }, claims: { iss: "a@b", exp: 1 } });
    expect(verifyRs256Jwt(token, other)).toEqual({ error: "Invalid JWT Signature." });
  });
});
