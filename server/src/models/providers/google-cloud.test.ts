import crypto from "node:crypto";
import fs from "node:fs";
import type http from "node:http";
import os from "node:os";
import path from "node:path";
import { completeChat, type ChatEvent } from "../model-types";
import { collect, neverAnswer, sendJson, sseBody, startVendorServer, unreachableUrl, writeSlowly, type RecordedRequest, type VendorServer } from "../../testing/vendor-servers";
import { verifyRs256Jwt } from "../../testing/vendor-signatures";
import { googleCloudProvider, parseServiceAccountKey } from "./google-cloud";

const PROJECT = "cairn-test-123";
const REGION = "europe-west4";
const { privateKey, publicKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
const PRIVATE_PEM = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const OTHER_PEM = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();

let emailCount = 0;
/** A service-account key as the console downloads it; each call names a new account, so tokens are not shared between tests. */
function serviceAccount(tokenUri: string, privatePem = PRIVATE_PEM) {
  emailCount += 1;
  return {
    type: "service_account",
    project_id: PROJECT,
    private_key_id: "4f1c0e5b7d",
    private_key: privatePem,
    client_email: `cairn-${emailCount}@${PROJECT}.iam.gserviceaccount.com`,
    client_id: "109876543210",
    auth_uri: "https://accounts.google.com/o/oauth2/auth",
    token_uri: tokenUri,
  };
}
const base64 = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64");

const issued = new Set<string>();
const DELTAS = ["Guten ", "Tag, ", "schöne ", "Welt", "!"];

/** Google's OAuth token endpoint, the metadata server and Vertex AI's Gemini and embedding endpoints. */
async function googleHandler(request: RecordedRequest, response: http.ServerResponse) {
  if (request.path === "/token") {
    const form = new URLSearchParams(request.body.toString("utf8"));
    if (request.headers["content-type"] !== "application/x-www-form-urlencoded") return sendJson(response, 400, { error: "invalid_request" });
    let subject: string;
    if (form.get("grant_type") === "urn:ietf:params:oauth:grant-type:jwt-bearer") {
      const jwt = verifyRs256Jwt(form.get("assertion") ?? "", publicKey);
      if ("error" in jwt) return sendJson(response, 400, { error: "invalid_grant", error_description: jwt.error });
      const { iss, aud, scope, iat, exp } = jwt.claims as Record<string, string | number>;
      const now = Date.now() / 1000;
      if (aud !== `http://${request.headers.host}/token`) return sendJson(response, 400, { error: "invalid_grant", error_description: "Invalid JWT: audience" });
      if (scope !== "https://www.googleapis.com/auth/cloud-platform") return sendJson(response, 400, { error: "invalid_scope" });
      if (Math.abs(Number(iat) - now) > 60 || Number(exp) - Number(iat) !== 3600) return sendJson(response, 400, { error: "invalid_grant", error_description: "Invalid JWT: Token must be a short-lived token" });
      subject = String(iss);
    } else if (form.get("grant_type") === "refresh_token" && form.get("refresh_token") === "1//refresh" && form.get("client_secret") === "d-secret") {
      subject = `user:${form.get("client_id")}`;
    } else {
      return sendJson(response, 400, { error: "unsupported_grant_type" });
    }
    const token = `ya29.${subject}.${issued.size}`;
    issued.add(token);
    return sendJson(response, 200, { access_token: token, expires_in: 3599, token_type: "Bearer" });
  }
  if (request.path === "/computeMetadata/v1/instance/service-accounts/default/token") {
    if (request.headers["metadata-flavor"] !== "Google") return sendJson(response, 403, { error: "Missing Metadata-Flavor:Google header." });
    issued.add("ya29.metadata");
    return sendJson(response, 200, { access_token: "ya29.metadata", expires_in: 3000, token_type: "Bearer" });
  }
  const authorization = String(request.headers.authorization ?? "");
  if (!issued.has(authorization.replace(/^Bearer /, ""))) {
    return sendJson(response, 401, { error: { code: 401, message: "Request had invalid authentication credentials. Expected OAuth 2 access token.", status: "UNAUTHENTICATED" } });
  }
  const match = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/google\/models\/([^/:]+):(\w+)$/.exec(request.path);
  if (!match || !["gemini-2.5-flash", "text-embedding-005"].includes(match[3])) {
    return sendJson(response, 404, { error: { code: 404, message: `Publisher Model \`projects/${PROJECT}/locations/${REGION}/publishers/google/models/${match?.[3]}\` not found.`, status: "NOT_FOUND" } });
  }
  if (match[4] === "streamGenerateContent" && request.json.tools) {
    const call = { candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Köln" } } }] }, finishReason: "STOP" }] };
    return writeSlowly(response, 200, { "content-type": "text/event-stream" }, sseBody([{ data: call }]), { pieceSize: 9 });
  }
  if (match[4] === "streamGenerateContent") {
    const chunks = DELTAS.map((text, i) => ({
      candidates: [{ content: { role: "model", parts: [{ text }] }, ...(i === DELTAS.length - 1 ? { finishReason: "STOP" } : {}) }],
      usageMetadata: { promptTokenCount: 12, candidatesTokenCount: i + 1, totalTokenCount: 13 + i },
      modelVersion: "gemini-2.5-flash",
    }));
    return writeSlowly(response, 200, { "content-type": "text/event-stream" }, sseBody(chunks.map((data) => ({ data }))).replace(/\n/g, "\r\n"), { pieceSize: 9 });
  }
  if (match[4] === "predict") {
    const instances = request.json.instances as { content: string; task_type: string }[];
    return sendJson(response, 200, {
      predictions: instances.map((instance) => ({
        embeddings: { values: [instance.content.length, instance.task_type === "RETRIEVAL_QUERY" ? 1 : 0], statistics: { token_count: 2, truncated: false } },
      })),
      metadata: { billableCharacterCount: 10 },
    });
  }
  return sendJson(response, 400, { error: { code: 400, message: "unknown method" } });
}

describe("Google Cloud Vertex AI", () => {
  let server: VendorServer;
  const noDefaults = { CLOUDSDK_CONFIG: path.join(os.tmpdir(), "cairn-no-gcloud") };
  const provider = (env: Record<string, string | undefined> = noDefaults, timeoutMs = 2_000) => googleCloudProvider({ baseUrl: server.url, timeoutMs, env });
  const credentialsWith = (key: object | string) => ({ projectId: PROJECT, region: REGION, serviceAccountKey: typeof key === "string" ? key : base64(key) });

  beforeAll(async () => {
    server = await startVendorServer(googleHandler);
  });
  afterAll(() => server.close());
  afterEach(() => server.handle(googleHandler));

  it("accepts a blank key or the base64 of a service-account key, and refuses anything else", () => {
    const { validate, credentialFields } = googleCloudProvider();
    expect(credentialFields).toEqual([
      expect.objectContaining({ key: "projectId", type: "string", required: true }),
      expect.objectContaining({ key: "region", type: "string", required: true, default: "us-central1" }),
      expect.objectContaining({ key: "serviceAccountKey", type: "secret", required: false }),
    ]);
    const key = serviceAccount("https://oauth2.googleapis.com/token");
    expect(validate!({ projectId: PROJECT, region: "us-central1", serviceAccountKey: "" })).toEqual([]);
    expect(validate!({ projectId: PROJECT, region: "global", serviceAccountKey: base64(key) })).toEqual([]);
    const problem = [{ field: "serviceAccountKey", messageKey: "errors.model.serviceAccountInvalid" }];
    expect(validate!({ projectId: PROJECT, region: REGION, serviceAccountKey: "not base64!" })).toEqual(problem);
    expect(validate!({ projectId: PROJECT, region: REGION, serviceAccountKey: Buffer.from("plain text").toString("base64") })).toEqual(problem);
    expect(validate!({ projectId: PROJECT, region: REGION, serviceAccountKey: base64({ ...key, type: "authorized_user" }) })).toEqual(problem);
    expect(validate!({ projectId: PROJECT, region: REGION, serviceAccountKey: base64({ ...key, private_key: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n" }) })).toEqual(problem);
    expect(validate!({ projectId: PROJECT, region: "Europe West", serviceAccountKey: "" })).toEqual([{ field: "region", messageKey: "errors.invalidField", params: { field: "region" } }]);
    expect(parseServiceAccountKey(base64(key))).toMatchObject({ client_email: key.client_email });
  });

  it("exchanges a JWT signed with the key for a token, then streams Gemini from the region's Vertex endpoint", async () => {
    const key = serviceAccount(`${server.url}/token`);
    const chat = provider().create("chat", { modelName: "gemini-2.5-flash", credentials: credentialsWith(key) });
    const before = server.requests.length;
    const events = await collect(
      chat.stream(
        [
          { role: "system", content: "Be brief." },
          { role: "user", content: "Hallo" },
          { role: "assistant", content: "Hallo!" },
          { role: "user", content: "Grüß die Welt." },
        ],
        { temperature: 0.3, topP: 0.8, maxTokens: 64, stop: ["\n\n"] },
      ),
    );
    const [tokenCall, vertexCall] = server.requests.slice(before);
    expect(tokenCall.method).toBe("POST");
    expect(tokenCall.path).toBe("/token");
    const jwt = verifyRs256Jwt(new URLSearchParams(tokenCall.body.toString()).get("assertion")!, publicKey);
    expect(jwt).toMatchObject({ header: { alg: "RS256", typ: "JWT", kid: "4f1c0e5b7d" }, claims: { iss: key.client_email, aud: `${server.url}/token` } });

    expect(vertexCall.url).toBe(`/v1/projects/${PROJECT}/locations/${REGION}/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse`);
    expect(vertexCall.headers.authorization).toBe(`Bearer ya29.${key.client_email}.${issued.size - 1}`);
    expect(vertexCall.json).toEqual({
      systemInstruction: { parts: [{ text: "Be brief." }] },
      contents: [
        { role: "user", parts: [{ text: "Hallo" }] },
        { role: "model", parts: [{ text: "Hallo!" }] },
        { role: "user", parts: [{ text: "Grüß die Welt." }] },
      ],
      generationConfig: { temperature: 0.3, topP: 0.8, maxOutputTokens: 64, stopSequences: ["\n\n"] },
    });
    expect(events.filter((e) => e.type === "delta").map((e) => (e as { text: string }).text)).toEqual(DELTAS);
    expect(events.slice(-2)).toEqual<ChatEvent[]>([
      { type: "finish", reason: "stop" },
      { type: "usage", usage: { promptTokens: 12, completionTokens: 5, totalTokens: 17 } },
    ]);
  });

  it("declares tools and passes on a function call as the Gemini API does, with JSON answers asked for the same way", async () => {
    const chat = provider().create("chat", { modelName: "gemini-2.5-flash", credentials: credentialsWith(serviceAccount(`${server.url}/token`)) });
    expect(chat.capabilities).toEqual({ tools: true, structuredOutput: true });
    const parameters = { type: "object", properties: { city: { type: "string" } } };
    const events = await collect(
      chat.stream([{ role: "user", content: "Wetter in Köln?" }], { tools: [{ name: "get_weather", parameters }], responseFormat: { type: "json", schema: parameters } }),
    );
    expect(events).toEqual<ChatEvent[]>([
      { type: "tool-call-delta", id: "call_0", name: "get_weather", argumentsDelta: '{"city":"Köln"}' },
      { type: "tool-call", id: "call_0", name: "get_weather", arguments: '{"city":"Köln"}', input: { city: "Köln" } },
      { type: "finish", reason: "tool-calls" },
    ]);
    expect(server.last().json).toMatchObject({
      tools: [{ functionDeclarations: [{ name: "get_weather", parametersJsonSchema: parameters }] }],
      generationConfig: { responseMimeType: "application/json", responseJsonSchema: parameters },
    });
  });

  it("reuses an access token until it nears its end instead of signing in for every call", async () => {
    const key = serviceAccount(`${server.url}/token`);
    const chat = provider().create("chat", { modelName: "gemini-2.5-flash", credentials: credentialsWith(key) });
    const before = server.requests.length;
    await Promise.all([completeChat(chat, [{ role: "user", content: "one" }]), completeChat(chat, [{ role: "user", content: "two" }])]);
    await completeChat(chat, [{ role: "user", content: "three" }]);
    expect(server.requests.slice(before).map((r) => r.path)).toEqual([
      "/token",
      ...Array(3).fill(`/v1/projects/${PROJECT}/locations/${REGION}/publishers/google/models/gemini-2.5-flash:streamGenerateContent`),
    ]);
  });

  it("describes an image sent inline, and embeds queries and documents with their task types", async () => {
    const credentials = credentialsWith(serviceAccount(`${server.url}/token`));
    const png = Buffer.from("89504e470d0a1a0a", "hex");
    const described = await provider().create("img2txt", { modelName: "gemini-2.5-flash", credentials }).describe({ data: png, mimeType: "image/png" }, { prompt: "Describe." });
    expect(described.text).toBe(DELTAS.join(""));
    expect(server.last().json.contents).toEqual([{ role: "user", parts: [{ inlineData: { mimeType: "image/png", data: png.toString("base64") } }, { text: "Describe." }] }]);

    const embedding = provider().create("embedding", { modelName: "text-embedding-005", credentials });
    const texts = Array.from({ length: 20 }, (_, i) => "x".repeat(i + 1));
    const before = server.requests.length;
    const documents = await embedding.embed(texts, { purpose: "document" });
    const calls = server.requests.slice(before);
    expect(calls.map((c) => c.path)).toEqual(Array(2).fill(`/v1/projects/${PROJECT}/locations/${REGION}/publishers/google/models/text-embedding-005:predict`));
    expect(calls.map((c) => c.json.instances.length)).toEqual([16, 4]);
    expect(calls[0].json.instances[0]).toEqual({ content: "x", task_type: "RETRIEVAL_DOCUMENT" });
    expect(documents.vectors).toEqual(texts.map((t) => [t.length, 0]));
    expect(documents.usage).toEqual({ promptTokens: 40, completionTokens: 0, totalTokens: 40 });
    await expect(embedding.embed(["q"], { purpose: "query" })).resolves.toMatchObject({ vectors: [[1, 1]] });
  });

  it("maps a key whose signature Google cannot verify to an authentication failure", async () => {
    const forged = serviceAccount(`${server.url}/token`, OTHER_PEM);
    const chat = provider().create("chat", { modelName: "gemini-2.5-flash", credentials: credentialsWith(forged) });
    await expect(completeChat(chat, [{ role: "user", content: "Hi" }])).rejects.toMatchObject({
      reason: "auth",
      params: { provider: "Google Cloud", detail: "invalid_grant: Invalid JWT Signature." },
    });
    expect(server.last().path).toBe("/token");
  });

  it("maps Vertex's answers: unknown model, permission denied, quota, time-out and an unreachable endpoint", async () => {
    const credentials = credentialsWith(serviceAccount(`${server.url}/token`));
    const ask = (modelName: string, p = provider()) => completeChat(p.create("chat", { modelName, credentials }), [{ role: "user", content: "Hi" }]);
    await expect(ask("gemini-9-ultra")).rejects.toMatchObject({ reason: "notFound", params: { detail: expect.stringContaining("Publisher Model") } });

    await ask("gemini-2.5-flash"); // a token is cached from here on
    server.handle((_, response) => sendJson(response, 403, { error: { code: 403, message: "Permission 'aiplatform.endpoints.predict' denied", status: "PERMISSION_DENIED" } }));
    await expect(ask("gemini-2.5-flash")).rejects.toMatchObject({ reason: "auth" });
    server.handle((_, response) => sendJson(response, 429, [{ error: { code: 429, message: "Quota exceeded for aiplatform.googleapis.com/generate_content_requests_per_minute", status: "RESOURCE_EXHAUSTED" } }]));
    await expect(ask("gemini-2.5-flash")).rejects.toMatchObject({ reason: "quota", params: { detail: expect.stringContaining("Quota exceeded") } });
    server.handle(neverAnswer);
    await expect(ask("gemini-2.5-flash", provider(noDefaults, 200))).rejects.toMatchObject({ reason: "timeout" });
    const offline = googleCloudProvider({ baseUrl: await unreachableUrl(), env: noDefaults });
    await expect(ask("gemini-2.5-flash", offline)).rejects.toMatchObject({ reason: "network", params: { detail: "ECONNREFUSED" } });
  });

  describe("with the key left blank (default credentials)", () => {
    const blank = { projectId: PROJECT, region: REGION, serviceAccountKey: "" };
    let dir: string;
    beforeAll(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-gcloud-"));
    });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    it("uses the key file named by GOOGLE_APPLICATION_CREDENTIALS", async () => {
      const file = path.join(dir, "key.json");
      const key = serviceAccount(`${server.url}/token`);
      fs.writeFileSync(file, JSON.stringify(key));
      const chat = provider({ GOOGLE_APPLICATION_CREDENTIALS: file }).create("chat", { modelName: "gemini-2.5-flash", credentials: blank });
      await expect(completeChat(chat, [{ role: "user", content: "Hi" }])).resolves.toMatchObject({ text: DELTAS.join("") });
      expect(server.last().headers.authorization).toMatch(new RegExp(`^Bearer ya29\\.${key.client_email}\\.`));
    });

    it("refreshes gcloud's user credentials from its well-known file", async () => {
      const config = path.join(dir, "gcloud");
      fs.mkdirSync(config);
      const user = { type: "authorized_user", client_id: "764086051850-6qr4p6gpi6hn506pt8ejuq83di341hur.apps.googleusercontent.com", client_secret: "d-secret", refresh_token: "1//refresh", token_uri: `${server.url}/token` };
      fs.writeFileSync(path.join(config, "application_default_credentials.json"), JSON.stringify(user));
      const chat = provider({ CLOUDSDK_CONFIG: config }).create("chat", { modelName: "gemini-2.5-flash", credentials: blank });
      await completeChat(chat, [{ role: "user", content: "Hi" }]);
      expect(server.last().headers.authorization).toMatch(/^Bearer ya29\.user:764086051850/);
    });

    it("asks the metadata server of the machine when there is no file, and says so when there is none either", async () => {
      const host = server.url.replace("http://", "");
      const chat = provider({ ...noDefaults, GCE_METADATA_HOST: host }).create("chat", { modelName: "gemini-2.5-flash", credentials: blank });
      await completeChat(chat, [{ role: "user", content: "Hi" }]);
      const metadataCall = server.requests.at(-2)!;
      expect(metadataCall.method).toBe("GET");
      expect(metadataCall.headers["metadata-flavor"]).toBe("Google");
      expect(server.last().headers.authorization).toBe("Bearer ya29.metadata");

      const nowhere = provider({ ...noDefaults, GCE_METADATA_HOST: (await unreachableUrl()).replace("http://", "") });
      await expect(completeChat(nowhere.create("chat", { modelName: "gemini-2.5-flash", credentials: blank }), [{ role: "user", content: "Hi" }])).rejects.toMatchObject({
        reason: "auth",
        params: { detail: expect.stringContaining("no default credentials were found") },
      });
    });
  });
});
