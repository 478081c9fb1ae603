import http from "node:http";
import type { AddressInfo } from "node:net";
import { pushedEvents } from "./pushed-events";
import { bridgeToSse, pyFloat, rawFrame, type SseBridgeOptions } from "./sse";

/**
 * The SSE bridge through a real HTTP server: RAGFlow's framing (`data:` + Python json.dumps, a blank
 * line), heartbeats while the source is quiet when asked, and a client that goes away cancelling the run.
 */

let server: http.Server;
let url: string;
/** What the next request streams. */
let route: (res: http.ServerResponse) => Promise<void>;

beforeAll(async () => {
  server = http.createServer((_req, res) => void route(res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function bridge(frames: AsyncIterable<unknown>, options?: SseBridgeOptions): Promise<void> {
  return new Promise((resolve) => {
    route = async (res) => {
      await bridgeToSse(res, frames, options);
      resolve();
    };
  });
}

it("writes each frame as data: and Python's json.dumps, a raw frame as it is, with RAGFlow's headers, then ends", async () => {
  const done = bridge(
    (async function* () {
      yield { code: 0, data: { answer: "Ahoy — 你好", created_at: pyFloat(1700000000), final: false, missing: undefined } };
      yield rawFrame("[DONE]");
    })(),
  );
  const response = await fetch(url);
  expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
  expect(response.headers.get("cache-control")).toBe("no-cache");
  expect(response.headers.get("x-accel-buffering")).toBe("no");
  expect(await response.text()).toBe(`data:{"code": 0, "data": {"answer": "Ahoy — 你好", "created_at": 1700000000.0, "final": false}}\n\ndata:[DONE]\n\n`);
  await done;
});

/** The response body as it arrives, read until `until` holds. */
function readUntil(request: http.ClientRequest, until: (body: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    request.on("response", (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        body += chunk;
        if (until(body)) resolve(body);
      });
      response.on("end", () => reject(new Error(`ended with ${JSON.stringify(body)}`)));
    });
    request.on("error", reject);
  });
}

it("writes a heartbeat comment while the source is quiet, when asked", async () => {
  const events = pushedEvents<unknown>();
  const done = bridge(events, { heartbeatMs: 10 });
  const request = http.get(url);
  const body = readUntil(request, (text) => text.includes(":\n\n"));
  events.push({ step: 1 });
  expect(await body).toMatch(/^data:\{"step": 1\}\n\n(:\n\n)+$/);
  events.end();
  await done;
  request.destroy();
});

it("a client that goes away before the end cancels the run, and the bridge stops reading the source", async () => {
  const events = pushedEvents<unknown>();
  let cancelled = false;
  let pulled = 0;
  const source = (async function* () {
    for await (const event of events) {
      pulled += 1;
      yield event;
    }
  })();
  const done = bridge(source, {
    onDisconnect: () => {
      cancelled = true;
      events.end(); // as a cancelled run ends its events
    },
  });
  const request = http.get(url);
  const body = readUntil(request, (text) => text.endsWith("\n\n"));
  events.push({ piece: "first" });
  expect(await body).toBe(`data:{"piece": "first"}\n\n`);
  request.destroy();
  await done;
  expect(cancelled).toBe(true);
  expect(pulled).toBe(1);
});

it("a source that ends normally is not a disconnect", async () => {
  const onDisconnect = jest.fn();
  const done = bridge(
    (async function* () {
      yield { only: true };
    })(),
    { onDisconnect },
  );
  expect(await (await fetch(url)).text()).toBe(`data:{"only": true}\n\n`);
  await done;
  expect(onDisconnect).not.toHaveBeenCalled();
});
