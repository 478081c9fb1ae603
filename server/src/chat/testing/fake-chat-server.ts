import http from "node:http";
import type { AddressInfo } from "node:net";
import { TEST_SERVER_KEEP_ALIVE_MS } from "../../testing/vendor-servers";

/**
 * A local model server speaking the OpenAI wire protocol (chat/completions, streamed or not, and
 * audio/speech and audio/transcriptions), for the chat tests: it answers what `reply` says, one word per `paceMs`, so a test can
 * join a stream midway. It records the requests it got.
 */

export interface FakeRequest {
  path: string;
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface FakeChatServer {
  /** Base URL to give the OpenAI-API-Compatible provider (ends with /v1). */
  url: string;
  requests: FakeRequest[];
  /** The text to answer with; by default the last user message echoed. */
  reply: (messages: { role: string; content: string }[]) => string;
  paceMs: number;
  close(): Promise<void>;
}

export const FAKE_AUDIO = Buffer.from("ID3-fake-mp3-audio");
/** What the fake hears in any recording (audio/transcriptions). */
export const FAKE_TRANSCRIPT = "Ahoy from the recording";

export async function startFakeChatServer(options: { paceMs?: number; reply?: FakeChatServer["reply"] } = {}): Promise<FakeChatServer> {
  const sockets = new Set<import("node:net").Socket>();
  const fake: FakeChatServer = {
    url: "",
    requests: [],
    paceMs: options.paceMs ?? 5,
    reply: options.reply ?? ((messages) => `You asked: ${messages.filter((m) => m.role === "user").at(-1)?.content ?? ""}`),
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", async () => {
      const path = req.url ?? "";
      if (path.endsWith("/audio/transcriptions")) {
        fake.requests.push({ path, body: {} });
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ text: FAKE_TRANSCRIPT }));
        return;
      }
      const body = raw ? JSON.parse(raw) : {};
      fake.requests.push({ path, body });
      if (path.endsWith("/audio/speech")) {
        res.writeHead(200, { "content-type": "audio/mpeg" });
        res.end(FAKE_AUDIO);
        return;
      }
      if (!path.endsWith("/chat/completions")) {
        res.writeHead(404).end();
        return;
      }
      const text = fake.reply(body.messages ?? []);
      const pieces = text.match(/\S+\s*|\s+/g) ?? [];
      if (!body.stream) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ id: "x", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }], usage: { prompt_tokens: 11, completion_tokens: pieces.length, total_tokens: 11 + pieces.length } }));
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      let closed = false;
      res.on("close", () => (closed = true));
      for (const piece of pieces) {
        if (closed) return;
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece } }] })}\n\n`);
        await new Promise((resolve) => setTimeout(resolve, fake.paceMs));
      }
      res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\n`);
      res.write(`data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 11, completion_tokens: pieces.length, total_tokens: 11 + pieces.length } })}\n\n`);
      res.end("data: [DONE]\n\n");
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.keepAliveTimeout = TEST_SERVER_KEEP_ALIVE_MS; // see testing/vendor-servers.ts
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () =>
    new Promise((done) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => done());
    });
  return fake;
}
