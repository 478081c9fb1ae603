import type http from "node:http";
import type { OutboundPolicy } from "../../platform/outbound";
import { ModelCallError, modelOutboundPolicy } from "../http";
import { completeChat, type ChatEvent } from "../model-types";
import { collect, neverAnswer, sendJson, startVendorServer, unreachableUrl, writeSlowly, type RecordedRequest, type VendorServer } from "../../testing/vendor-servers";
import { verifySigV4 } from "../../testing/vendor-signatures";
import { eventStreamFrame as frame } from "../testing/aws-event-stream";
import { BEDROCK_REGIONS, bedrockProvider } from "./bedrock";

const ACCESS_KEY = "AKIAIOSFODNN7EXAMPLE";
const SECRET_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const CLAUDE = "anthropic.claude-3-haiku-20240307-v1:0";
const KNOWN_MODELS = [CLAUDE, "amazon.titan-embed-text-v2:0", "cohere.embed-multilingual-v3"];

function awsError(response: http.ServerResponse, status: number, type: string, message: string) {
  sendJson(response, status, { message }, { "x-amzn-errortype": `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` });
}

const DELTAS = ["Hel", "lo, ", "wörld", " — ", "naïve ✓"];

/** Bedrock's runtime API for the models above: checks the SigV4 signature, then answers like the service. */
async function bedrockHandler(request: RecordedRequest, response: http.ServerResponse) {
  const signature = verifySigV4(request, (keyId) => (keyId === ACCESS_KEY ? SECRET_KEY : undefined));
  if (!signature.ok) {
    const type = signature.reason.startsWith("unknown access key") ? "UnrecognizedClientException" : "InvalidSignatureException";
    return awsError(response, 403, type, signature.reason);
  }
  const [, , encodedModel, operation] = request.path.split("/");
  const model = decodeURIComponent(encodedModel);
  if (!KNOWN_MODELS.includes(model)) return awsError(response, 400, "ValidationException", "The provided model identifier is invalid.");
  if (operation === "converse-stream") {
    const frames = [
      frame("messageStart", { role: "assistant", p: "abcd" }),
      frame("contentBlockStart", { contentBlockIndex: 0, start: {}, p: "ab" }),
      ...DELTAS.map((text) => frame("contentBlockDelta", { contentBlockIndex: 0, delta: { text }, p: "abcdef" })),
      frame("contentBlockStop", { contentBlockIndex: 0 }),
      frame("messageStop", { stopReason: request.json.inferenceConfig?.maxTokens === 5 ? "max_tokens" : "end_turn" }),
      frame("metadata", { usage: { inputTokens: 21, outputTokens: 5, totalTokens: 26 }, metrics: { latencyMs: 212 } }),
    ];
    return writeSlowly(response, 200, { "content-type": "application/vnd.amazon.eventstream", "x-amzn-requestid": "req-1" }, frames, { pieceSize: 11 });
  }
  if (operation === "invoke" && model.startsWith("amazon.titan")) {
    const text = request.json.inputText as string;
    // Longer texts answer sooner, so that answers arrive out of order.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 30 - text.length)));
    return sendJson(response, 200, { embedding: [text.length, 0.5, -0.25], inputTextTokenCount: text.split(" ").length });
  }
  if (operation === "invoke" && model.startsWith("cohere.embed")) {
    const texts = request.json.texts as string[];
    return sendJson(response, 200, { id: "e-1", response_type: "embeddings_floats", texts, embeddings: texts.map((t) => [t.length, request.json.input_type === "search_query" ? 1 : 0]) });
  }
  return awsError(response, 404, "UnknownOperationException", `no ${operation}`);
}

describe("AWS Bedrock", () => {
  let server: VendorServer;
  const credentials = { accessKey: ACCESS_KEY, secretKey: SECRET_KEY, region: "us-west-2" };
  const provider = () => bedrockProvider({ endpoint: server.url, timeoutMs: 2_000 });

  beforeAll(async () => {
    // The SDK's Bedrock runtime client speaks HTTP/2 only (its NodeHttp2Handler), to the real service as to this one.
    server = await startVendorServer(bedrockHandler, { http2: true });
  });
  afterAll(() => server.close());
  afterEach(() => server.handle(bedrockHandler));

  it("offers exactly the seven regions of the specification, us-east-1 first", () => {
    const region = bedrockProvider().credentialFields.find((f) => f.key === "region")!;
    expect(region).toMatchObject({ type: "select", required: true, default: "us-east-1" });
    const regions = region.options!.map((o) => o.value);
    expect(regions).toEqual(["us-east-1", "us-west-2", "ap-southeast-1", "ap-northeast-1", "eu-central-1", "us-gov-west-1", "ap-southeast-2"]);
    expect(BEDROCK_REGIONS).toEqual(regions);
    expect(bedrockProvider().credentialFields.map((f) => f.key)).toEqual(["accessKey", "secretKey", "region"]);
  });

  it("streams a Converse answer, signed with SigV4 for the chosen region and the bedrock service", async () => {
    const chat = provider().create("chat", { modelName: CLAUDE, credentials });
    const events = await collect(
      chat.stream(
        [
          { role: "system", content: "Answer briefly." },
          { role: "user", content: "Hi" },
          { role: "user", content: "Who are you?" },
          { role: "assistant", content: "A model." },
          { role: "user", content: "Say hello." },
        ],
        { temperature: 0.2, topP: 0.9, maxTokens: 5, stop: ["END"] },
      ),
    );
    const request = server.last();
    expect(request.method).toBe("POST");
    // The model id's colon travels percent-encoded in the path.
    expect(request.url).toBe("/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse-stream");
    expect(verifySigV4(request, () => SECRET_KEY)).toEqual({ ok: true, keyId: ACCESS_KEY, scope: [expect.stringMatching(/^\d{8}$/), "us-west-2", "bedrock"] });
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.json).toEqual({
      system: [{ text: "Answer briefly." }],
      messages: [
        { role: "user", content: [{ text: "Hi" }, { text: "Who are you?" }] },
        { role: "assistant", content: [{ text: "A model." }] },
        { role: "user", content: [{ text: "Say hello." }] },
      ],
      inferenceConfig: { maxTokens: 5, temperature: 0.2, topP: 0.9, stopSequences: ["END"] },
    });
    const deltas = events.filter((e): e is Extract<ChatEvent, { type: "delta" }> => e.type === "delta").map((e) => e.text);
    expect(deltas).toEqual(DELTAS);
    expect(events.filter((e) => e.type !== "delta")).toEqual([
      { type: "finish", reason: "length" },
      { type: "usage", usage: { promptTokens: 21, completionTokens: 5, totalTokens: 26 } },
    ]);
  });

  it("describes an image by sending its bytes in a Converse image block", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    const img2txt = provider().create("img2txt", { modelName: CLAUDE, credentials });
    const result = await img2txt.describe({ data: png, mimeType: "image/png" }, { prompt: "What is this?" });
    expect(result.text).toBe(DELTAS.join(""));
    expect(result.usage).toEqual({ promptTokens: 21, completionTokens: 5, totalTokens: 26 });
    const content = server.last().json.messages[0].content;
    expect(content).toEqual([{ image: { format: "png", source: { bytes: png.toString("base64") } } }, { text: "What is this?" }]);
  });

  it("embeds with Titan one text per InvokeModel call, keeping the input order and summing tokens", async () => {
    const embedding = provider().create("embedding", { modelName: "amazon.titan-embed-text-v2:0", credentials });
    const texts = ["a", "bb bb", "a much longer text that answers first", "dd"];
    const before = server.requests.length;
    const result = await embedding.embed(texts);
    const calls = server.requests.slice(before);
    expect(calls).toHaveLength(4);
    expect(calls.map((c) => c.url)).toEqual(Array(4).fill("/model/amazon.titan-embed-text-v2%3A0/invoke"));
    expect(calls.map((c) => c.json.inputText).sort()).toEqual([...texts].sort());
    expect(calls.every((c) => verifySigV4(c, () => SECRET_KEY).ok)).toBe(true);
    expect(result.vectors).toEqual(texts.map((t) => [t.length, 0.5, -0.25]));
    expect(result.usage).toEqual({ promptTokens: 1 + 2 + 7 + 1, completionTokens: 0, totalTokens: 11 });
  });

  it("embeds with Cohere in batches of 96, as search queries or search documents", async () => {
    const embedding = provider().create("embedding", { modelName: "cohere.embed-multilingual-v3", credentials });
    const texts = Array.from({ length: 100 }, (_, i) => `text ${i}`);
    const before = server.requests.length;
    const documents = await embedding.embed(texts, { purpose: "document" });
    const calls = server.requests.slice(before);
    expect(calls.map((c) => c.json.texts.length)).toEqual([96, 4]);
    expect(calls[0].json).toMatchObject({ input_type: "search_document", truncate: "END" });
    expect(documents.vectors).toEqual(texts.map((t) => [t.length, 0]));
    const query = await embedding.embed(["where?"], { purpose: "query" });
    expect(server.last().json.input_type).toBe("search_query");
    expect(query.vectors).toEqual([[6, 1]]);
  });

  it("maps a wrong secret key (signature mismatch) and an unknown access key to an authentication failure", async () => {
    const wrongSecret = provider().create("chat", { modelName: CLAUDE, credentials: { ...credentials, secretKey: "not-the-secret" } });
    const failure = await completeChat(wrongSecret, [{ role: "user", content: "Hi" }]).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ModelCallError);
    expect(failure).toMatchObject({ reason: "auth", params: { provider: "Bedrock", detail: expect.stringContaining("InvalidSignatureException") } });

    const unknownKey = provider().create("embedding", { modelName: "amazon.titan-embed-text-v2:0", credentials: { ...credentials, accessKey: "AKIAUNKNOWN" } });
    await expect(unknownKey.embed(["x"])).rejects.toMatchObject({ reason: "auth", params: { detail: expect.stringContaining("UnrecognizedClientException") } });
  });

  it("maps an unknown model id (Bedrock's ValidationException) to model not found", async () => {
    const chat = provider().create("chat", { modelName: "anthropic.claude-9", credentials });
    await expect(completeChat(chat, [{ role: "user", content: "Hi" }])).rejects.toMatchObject({
      reason: "notFound",
      params: { detail: "ValidationException: The provided model identifier is invalid." },
    });
  });

  it("maps throttling to quota, whether it is the HTTP answer or an exception inside the stream", async () => {
    server.handle((_, response) => awsError(response, 429, "ThrottlingException", "Too many requests, please wait before trying again."));
    const chat = provider().create("chat", { modelName: CLAUDE, credentials });
    await expect(completeChat(chat, [{ role: "user", content: "Hi" }])).rejects.toMatchObject({ reason: "quota" });

    server.handle((_, response) =>
      writeSlowly(response, 200, { "content-type": "application/vnd.amazon.eventstream" }, [
        frame("messageStart", { role: "assistant" }),
        frame("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Partial" } }),
        frame("throttlingException", { message: "Too many tokens per minute" }, "exception"),
      ]),
    );
    const seen: ChatEvent[] = [];
    const failure = await (async () => {
      for await (const event of chat.stream([{ role: "user", content: "Hi" }])) seen.push(event);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([{ type: "delta", text: "Partial" }]);
    expect(failure).toMatchObject({ reason: "quota", params: { detail: expect.stringContaining("Too many tokens per minute") } });
  });

  it("maps an access-denied model and a service outage", async () => {
    server.handle((_, response) => awsError(response, 403, "AccessDeniedException", "You don't have access to the model with the specified model ID."));
    const embedding = provider().create("embedding", { modelName: "amazon.titan-embed-text-v2:0", credentials });
    await expect(embedding.embed(["x"])).rejects.toMatchObject({ reason: "auth" });
    server.handle((_, response) => awsError(response, 503, "ServiceUnavailableException", "Service is unavailable."));
    await expect(embedding.embed(["x"])).rejects.toMatchObject({ reason: "unavailable" });
  });

  it("times out when Bedrock does not answer, or stops in the middle of a stream", async () => {
    server.handle(neverAnswer);
    const quick = bedrockProvider({ endpoint: server.url, timeoutMs: 200 });
    const chat = quick.create("chat", { modelName: CLAUDE, credentials });
    await expect(completeChat(chat, [{ role: "user", content: "Hi" }])).rejects.toMatchObject({ reason: "timeout" });

    server.handle((_, response) => {
      response.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
      response.write(frame("messageStart", { role: "assistant" }));
      response.write(frame("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Half" } }));
    });
    const started = Date.now();
    await expect(completeChat(chat, [{ role: "user", content: "Hi" }])).rejects.toMatchObject({ reason: "timeout" });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it("never cuts a slow stream that keeps flowing, however long it lasts in all", async () => {
    server.handle((_, response) =>
      writeSlowly(
        response,
        200,
        { "content-type": "application/vnd.amazon.eventstream" },
        [frame("messageStart", { role: "assistant" }), ...["a", "b", "c", "d", "e", "f"].map((text) => frame("contentBlockDelta", { contentBlockIndex: 0, delta: { text } })), frame("messageStop", { stopReason: "end_turn" })],
        { pieceSize: 1_000, pauseMs: 80 },
      ),
    );
    const patient = bedrockProvider({ endpoint: server.url, timeoutMs: 200 }).create("chat", { modelName: CLAUDE, credentials });
    const started = Date.now();
    await expect(completeChat(patient, [{ role: "user", content: "Hi" }])).resolves.toMatchObject({ text: "abcdef" });
    expect(Date.now() - started).toBeGreaterThan(400);
  });

  it("reports a network failure when the endpoint cannot be reached", async () => {
    const offline = bedrockProvider({ endpoint: await unreachableUrl(), timeoutMs: 2_000 });
    const embedding = offline.create("embedding", { modelName: "amazon.titan-embed-text-v2:0", credentials });
    await expect(embedding.embed(["x"])).rejects.toMatchObject({ reason: "network", params: { detail: "ECONNREFUSED" } });
  });

  it("connects through the outbound guard: a refused endpoint is never called, by address or by name", async () => {
    const requestsBefore = server.requests.length;
    const embed = (endpoint: string, outbound?: OutboundPolicy) =>
      bedrockProvider({ endpoint, timeoutMs: 2_000 }).create("embedding", { modelName: "amazon.titan-embed-text-v2:0", credentials, outbound }).embed(["x"]);
    await expect(embed("http://169.254.169.254")).rejects.toMatchObject({ reason: "addressRefused", params: { detail: "169.254.169.254" } });
    await expect(embed(server.url, modelOutboundPolicy(false))).rejects.toMatchObject({ reason: "addressRefused", params: { detail: "127.0.0.1" } });
    // A name is resolved by the guard inside the SDK's HTTP/2 connection.
    const metadataByName: OutboundPolicy = { ...modelOutboundPolicy(true), resolve: async () => ["169.254.169.254"] };
    await expect(embed(`http://bedrock.test:${new URL(server.url).port}`, metadataByName)).rejects.toMatchObject({ reason: "addressRefused", params: { detail: "bedrock.test" } });
    // The SDK's own HTTP/2 connection is checked too: an answer that changes after the first check is refused when it connects.
    let lookups = 0;
    const rebinding: OutboundPolicy = { ...modelOutboundPolicy(true), resolve: async () => (lookups++ === 0 ? ["127.0.0.1"] : ["169.254.169.254"]) };
    await expect(embed(`http://bedrock.test:${new URL(server.url).port}`, rebinding)).rejects.toBeInstanceOf(ModelCallError);
    expect(lookups).toBe(2);
    const loopbackByName: OutboundPolicy = { ...modelOutboundPolicy(true), resolve: async () => ["127.0.0.1"] };
    await expect(embed(`http://bedrock.test:${new URL(server.url).port}`, loopbackByName)).resolves.toMatchObject({ vectors: [expect.any(Array)] });
    expect(server.requests.length).toBe(requestsBefore + 1);
  });

  it("refuses embedding models whose request body it does not know, and rerank", async () => {
    const embedding = provider().create("embedding", { modelName: "twelvelabs.marengo-embed", credentials });
    await expect(embedding.embed(["x"])).rejects.toMatchObject({ reason: "badRequest" });
    expect(() => provider().create("rerank", { modelName: "x", credentials })).toThrow("Bedrock offers no rerank models");
  });
});
