import http from "node:http";
import type { AddressInfo } from "node:net";
import { startTestServer, type TestServer } from "../../testing/app";
import { startFakeChatServer, type FakeChatServer } from "../testing/fake-chat-server";
import { addFakeModel, chatUser, createAssistant, type ChatUser } from "../testing/support";

/**
 * `POST /v1/chat/tts` reads an answer aloud with the tenant's TTS model: whatever the model's base URL
 * answers, only audio is passed on.
 */

const FAKE_CREDENTIALS = "AccessKeyId=AKIAIOSFODNN7EXAMPLE SecretAccessKey=wJalrXUtnFEMI";

let server: TestServer;
let chatFake: FakeChatServer;
let owner: ChatUser;
let messageId: string;
/** Stands in for a metadata service or an internal admin page: it must never be reached. */
let internal: { url: string; hits: number; close(): Promise<void> };
/** The TTS model's base URL: it answers /audio/speech as `speech` says. */
let speechServer: { url: string; close(): Promise<void> };
let speech: (res: http.ServerResponse) => void;

async function listen(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const local = http.createServer(handler);
  await new Promise<void>((resolve) => local.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(local.address() as AddressInfo).port}`, close: () => new Promise((done) => local.close(() => done())) };
}

beforeAll(async () => {
  server = await startTestServer();
  chatFake = await startFakeChatServer({ paceMs: 1, reply: () => "Ahoy there, sailor!" });
  const internalServer = await listen((_req, res) => {
    internal.hits++;
    res.writeHead(200, { "content-type": "text/plain" }).end(FAKE_CREDENTIALS);
  });
  internal = { ...internalServer, hits: 0 };
  speechServer = await listen((req, res) => {
    req.resume();
    req.on("end", () => speech(res));
  });
  owner = await chatUser(server);
  const chat = (await createAssistant(server, owner, { llmId: await addFakeModel(server, owner, chatFake), prompt: { prologue: "Arr." } })).id;
  const session = await server.rest("POST", `/api/v1/chats/${chat}/sessions`, { token: owner.key, body: {} });
  const answered = await server.rest("POST", `/api/v1/chats/${chat}/completions`, { token: owner.key, body: { question: "hello", session_id: session.body.data.id, stream: false } });
  messageId = answered.body.data.id;
  const tts = await addFakeModel(server, owner, { ...chatFake, url: `${speechServer.url}/v1` }, "tts");
  const set = await server.graphql(`mutation($i: DefaultModelsInput!) { setDefaultModels(input: $i) { tts } }`, { i: { tts } }, owner.token);
  expect(set.errors).toBeUndefined();
}, 120_000);

afterAll(async () => {
  await server?.close();
  await chatFake?.close();
  await internal?.close();
  await speechServer?.close();
});

async function readAloud(): Promise<{ status: number; contentType: string | null; body: string }> {
  const response = await fetch(`${server.url}/v1/chat/tts`, {
    method: "POST",
    headers: { authorization: `Bearer ${owner.token}`, "content-type": "application/json" },
    body: JSON.stringify({ messageId }),
  });
  return { status: response.status, contentType: response.headers.get("content-type"), body: await response.text() };
}

describe("text to speech through a base URL that does not answer audio", () => {
  test("a base URL that redirects to an internal address returns no foreign content", async () => {
    for (const status of [302, 307, 308]) {
      for (const location of [`${internal.url}/latest/meta-data/iam/security-credentials/role`, "http://169.254.169.254/latest/meta-data/iam/security-credentials/role"]) {
        speech = (res) => res.writeHead(status, { location }).end();
        const answer = await readAloud();
        expect([status, location, answer.status]).toEqual([status, location, 400]);
        expect(JSON.parse(answer.body)).toMatchObject({ messageKey: "errors.model.redirectRefused" });
        expect(answer.body).not.toMatch(/AKIA|wJalr/);
      }
    }
    expect(internal.hits).toBe(0);
  });

  test("an answer that is not audio is refused and never passed on", async () => {
    speech = (res) => res.writeHead(200, { "content-type": "text/plain" }).end(FAKE_CREDENTIALS);
    const answer = await readAloud();
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ messageKey: "errors.model.badRequest" });
    expect(answer.body).not.toMatch(/AKIA|wJalr/);
  });

  test("audio is streamed with its content type", async () => {
    speech = (res) => res.writeHead(200, { "content-type": "audio/mpeg" }).end("ID3-audio");
    expect(await readAloud()).toEqual({ status: 200, contentType: "audio/mpeg", body: "ID3-audio" });
  });
});
