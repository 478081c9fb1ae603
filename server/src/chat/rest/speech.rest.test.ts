import { sharedTestServer, type HttpTestServer } from "../../testing/app";
import { multipart } from "../../testing/rest-support";
import { FAKE_AUDIO, FAKE_TRANSCRIPT, startFakeChatServer, type FakeChatServer } from "../testing/fake-chat-server";
import { addFakeModel, chatUser, type ChatUser } from "../testing/support";

/** The service API's speech endpoints (contract §11): `/api/v1/tts` and `/api/v1/sequence2txt`. */

let server: HttpTestServer;
let fake: FakeChatServer;
let speaking: ChatUser;
let silent: ChatUser;

const transcribe = (user: ChatUser, name: string, fields: Record<string, string> = {}) =>
  multipart(server, "/api/v1/sequence2txt", `Bearer ${user.key}`, name ? [{ name, data: Buffer.from("RIFF-fake-wav") }] : [], fields);

beforeAll(async () => {
  server = await sharedTestServer();
  fake = await startFakeChatServer();
  [speaking, silent] = [await chatUser(server), await chatUser(server)];
  const [tts, asr] = [await addFakeModel(server, speaking, fake, "tts"), await addFakeModel(server, speaking, fake, "sequence2txt")];
  const set = await server.graphql(`mutation($i: DefaultModelsInput!) { setDefaultModels(input: $i) { tts } }`, { i: { tts, sequence2txt: asr } }, speaking.token);
  expect(set.errors).toBeUndefined();
}, 60_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

describe("POST /api/v1/tts", () => {
  it("streams the tenant's TTS model's audio for the text", async () => {
    const response = await fetch(`${server.url}/api/v1/tts`, { method: "POST", headers: { authorization: `Bearer ${speaking.key}`, "content-type": "application/json" }, body: JSON.stringify({ text: "Hello **there**" }) });
    expect(response.headers.get("content-type")).toBe("audio/mpeg");
    expect(Buffer.from(await response.arrayBuffer())).toEqual(FAKE_AUDIO);
    expect(fake.requests.at(-1)).toMatchObject({ path: "/v1/audio/speech", body: { input: "Hello there" } });
  });

  it("answers RAGFlow's errors: no text, no TTS model", async () => {
    expect((await server.rest("POST", "/api/v1/tts", { token: speaking.key, body: {} })).body).toEqual({ code: 100, message: "KeyError('text')", data: null });
    expect((await server.rest("POST", "/api/v1/tts", { token: silent.key, body: { text: "hi" } })).body).toEqual({ code: 102, message: "No default TTS model is set" });
  });
});

describe("POST /api/v1/sequence2txt", () => {
  it("transcribes a recording with the tenant's speech model, whole or as a stream", async () => {
    expect((await transcribe(speaking, "clip.WAV")).body).toEqual({ code: 0, message: "success", data: { text: FAKE_TRANSCRIPT } });
    const streamed = await fetch(`${server.url}/api/v1/sequence2txt`, {
      method: "POST",
      headers: { authorization: `Bearer ${speaking.key}` },
      body: (() => {
        const form = new FormData();
        form.append("stream", "true");
        form.append("file", new Blob([Buffer.from("ID3")]), "clip.mp3");
        return form;
      })(),
    });
    expect(streamed.headers.get("content-type")).toContain("text/event-stream");
    expect(await streamed.text()).toBe(`data:{"event": "final", "text": "${FAKE_TRANSCRIPT}"}\n\n`);
  });

  it("answers RAGFlow's errors: no file, an unsupported format, no speech model", async () => {
    expect((await transcribe(speaking, "", { stream: "false" })).body).toEqual({ code: 102, message: "Missing 'file' in multipart form-data" });
    expect((await transcribe(speaking, "clip.txt")).body).toEqual({ code: 102, message: "Unsupported audio format: .txt. Allowed: .aac, .flac, .m4a, .mp3, .ogg, .opus, .wav, .webm, .wma" });
    expect((await transcribe(silent, "clip.wav")).body).toEqual({ code: 102, message: "No default ASR model is set" });
  });
});
