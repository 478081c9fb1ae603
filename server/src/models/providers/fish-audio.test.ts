import type http from "node:http";
import { collect, neverAnswer, sendJson, startVendorServer, unreachableUrl, writeSlowly, type RecordedRequest, type VendorServer } from "../../testing/vendor-servers";
import { fishAudioProvider } from "./fish-audio";

const KEY = "fish-key";
const VOICE = "7f92f8afb8ec43bf81429cc1c9199cb1";
const MP3 = Buffer.concat([Buffer.from("ID3", "latin1"), Buffer.from(Array.from({ length: 300 }, (_, i) => i % 256))]);

/** api.fish.audio/v1/tts: bearer key, model header, JSON body; MP3 streamed in chunks. */
function fishHandler(request: RecordedRequest, response: http.ServerResponse) {
  if (request.headers.authorization !== `Bearer ${KEY}`) return sendJson(response, 401, { status: 401, message: "Invalid api key" });
  const referenceId = request.json.reference_id as string | undefined;
  if (referenceId !== undefined && referenceId !== VOICE) return sendJson(response, 404, { status: 404, message: "Reference not found" });
  return writeSlowly(response, 200, { "content-type": "audio/mpeg", "transfer-encoding": "chunked" }, MP3, { pieceSize: 64 });
}

describe("Fish Audio", () => {
  let server: VendorServer;
  const credentials = (referenceId = VOICE) => ({ apiKey: KEY, referenceId, baseUrl: server.url });
  const provider = (timeoutMs = 2_000) => fishAudioProvider({ timeoutMs });

  beforeAll(async () => {
    server = await startVendorServer(fishHandler);
  });
  afterAll(() => server.close());
  afterEach(() => server.handle(fishHandler));

  it("asks for an audio API key and an optional reference id", () => {
    expect(fishAudioProvider().credentialFields).toEqual([
      expect.objectContaining({ key: "apiKey", type: "secret", required: true }),
      expect.objectContaining({ key: "referenceId", type: "string", required: false }),
      expect.objectContaining({ key: "baseUrl", type: "url", required: false, default: "https://api.fish.audio" }),
    ]);
  });

  it("speaks with the reference voice and streams the MP3 as it arrives", async () => {
    const speech = await provider().create("tts", { modelName: "speech-1.5", credentials: credentials() }).synthesize("Hello from Cairn");
    const pieces = await collect(speech.audio);
    expect(speech.mimeType).toBe("audio/mpeg");
    expect(Buffer.concat(pieces)).toEqual(MP3);
    expect(pieces.length).toBeGreaterThan(1);
    const request = server.last();
    expect(request.path).toBe("/v1/tts");
    expect(request.headers.model).toBe("speech-1.5");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.json).toEqual({ text: "Hello from Cairn", reference_id: VOICE, format: "mp3", mp3_bitrate: 128, normalize: true, latency: "normal", chunk_length: 200 });
  });

  it("leaves the reference out when it is blank, so that Fish Audio uses its default voice", async () => {
    const speech = await provider().create("tts", { modelName: "s1", credentials: credentials("") }).synthesize("Hi");
    await collect(speech.audio);
    expect(server.last().json).not.toHaveProperty("reference_id");
  });

  it("maps a bad key, an unknown voice, no balance, rate limits, time-outs and the network", async () => {
    const speak = (creds = credentials(), p = provider()) => p.create("tts", { modelName: "s1", credentials: creds }).synthesize("x");
    await expect(speak({ ...credentials(), apiKey: "bad" })).rejects.toMatchObject({ reason: "auth", params: { detail: "HTTP 401: Invalid api key" } });
    await expect(speak(credentials("unknown-voice"))).rejects.toMatchObject({ reason: "notFound" });
    server.handle((_, response) => sendJson(response, 402, { status: 402, message: "Insufficient balance" }));
    await expect(speak()).rejects.toMatchObject({ reason: "quota" });
    server.handle((_, response) => sendJson(response, 429, { status: 429, message: "Too many requests" }));
    await expect(speak()).rejects.toMatchObject({ reason: "quota" });
    server.handle(neverAnswer);
    await expect(speak(credentials(), provider(200))).rejects.toMatchObject({ reason: "timeout" });
    await expect(speak({ ...credentials(), baseUrl: await unreachableUrl() })).rejects.toMatchObject({ reason: "network" });
  });

  it("fails the audio stream with a time-out when the speech stops arriving", async () => {
    server.handle((_, response) => {
      response.writeHead(200, { "content-type": "audio/mpeg" });
      response.write(MP3.subarray(0, 10));
    });
    const speech = await provider(200).create("tts", { modelName: "s1", credentials: credentials() }).synthesize("x");
    await expect(collect(speech.audio)).rejects.toMatchObject({ reason: "timeout" });
  });
});
