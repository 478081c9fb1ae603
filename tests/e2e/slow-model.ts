import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type APIRequestContext } from "@playwright/test";
import { graphql } from "./support";

export interface SlowModel {
  server: Server;
  baseUrl: string;
  spoken: string[];
  pause(afterWords?: number): void;
  resume(): void;
  close(): Promise<void>;
}

/** A local model for the journeys that act in the middle of an answer (reload, stop) or listen to one (speech). */

/** The slow model's answer, one word per event: long enough to reload the page in the middle of it. */
export const SLOW_WORDS = Array.from({ length: 40 }, (_, index) => `word${index + 1}`);
export const SLOW_MODEL = "slow-writer";
/**
 * The pause between two words. The journeys that act mid-answer hold the stream with pause() rather than count on
 * the pace, so it only needs to be slow enough for the page to render the words one by one.
 */
const SLOW_PACE_MS = 50;

/** A quarter of a second of a 440 Hz tone: 8 kHz, 8-bit mono WAV. */
function toneWav(): Buffer {
  const samples = Buffer.from(Array.from({ length: 2000 }, (_, index) => Math.round(128 + 60 * Math.sin((2 * Math.PI * 440 * index) / 8000))));
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + samples.length, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write("data", 36);
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

/**
 * A local model server speaking OpenAI's protocol: streaming chat at a fixed pace, one word per event, and speech
 * (a short tone for any text; the texts it was asked to read are kept in `spoken`). `pause(afterWords)` holds every
 * stream once it has sent that many words (at once when none is given) until `resume()`, so that a test can act
 * mid-answer however slow the machine. `close()` ends every stream, held ones included, so that a test that fails
 * while a stream is held reports its own failure instead of waiting on the server for ever.
 */
export async function startSlowModel(): Promise<SlowModel> {
  const spoken: string[] = [];
  let holdAfter = Infinity;
  const server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    request.on("end", () => {
      const path = new URL(request.url ?? "/", "http://localhost").pathname;
      const body = text ? (JSON.parse(text) as { stream?: boolean; input?: string }) : {};
      if (path === "/v1/audio/speech") {
        spoken.push(body.input ?? "");
        response.writeHead(200, { "content-type": "audio/wav" });
        response.end(toneWav());
        return;
      }
      if (path !== "/v1/chat/completions") {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ object: "list", data: [{ id: SLOW_MODEL, object: "model" }] }));
        return;
      }
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: "slow", object: "chat.completion.chunk", model: SLOW_MODEL, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      if (!body.stream) {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ id: "slow", object: "chat.completion", model: SLOW_MODEL, choices: [{ index: 0, message: { role: "assistant", content: SLOW_WORDS.join(" ") }, finish_reason: "stop" }] }));
        return;
      }
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      let next = 0;
      const timer = setInterval(() => {
        if (next >= holdAfter) return;
        if (next < SLOW_WORDS.length) {
          response.write(chunk({ content: (next === 0 ? "" : " ") + SLOW_WORDS[next] }));
          next += 1;
          return;
        }
        clearInterval(timer);
        response.write(chunk({}, "stop"));
        response.end("data: [DONE]\n\n");
      }, SLOW_PACE_MS);
      response.on("close", () => clearInterval(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    server,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    spoken,
    pause: (afterWords = 0) => (holdAfter = afterWords),
    resume: () => (holdAfter = Infinity),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Adds the slow model at `baseUrl` as one of the tenant's chat models and returns its id, as the model pickers list it. */
export async function addSlowChatModel(request: APIRequestContext, token: string, baseUrl: string): Promise<string> {
  await graphql(
    request,
    "mutation($input: ModelEntryInput!) { addModelEntry(input: $input) { id } }",
    { input: { provider: "OpenAI-API-Compatible", modelName: SLOW_MODEL, modelType: "chat", credentials: [{ name: "baseUrl", value: baseUrl }] } },
    token,
  );
  const { availableModels } = await graphql<{ availableModels: { id: string; modelName: string }[] }>(request, 'query { availableModels(type: "chat") { id modelName } }', {}, token);
  const id = availableModels.find((candidate) => candidate.modelName === SLOW_MODEL)?.id;
  expect(id).toBeTruthy();
  return id!;
}
