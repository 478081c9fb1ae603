import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local server standing in for a search vendor in the search components' tests: it records every request
 * (so a test checks method, path, query and headers) and answers with what the test's handler says — a
 * recorded-shape body, an error status, or nothing at all (`hang`, for time-outs).
 */

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface VendorReply {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON. */
  body?: string | object;
  /** Never answer: the client's time limit or cancellation must end the request. */
  hang?: boolean;
}

export type VendorHandler = (request: RecordedRequest) => VendorReply;

export interface SearchVendorServer {
  /** http://127.0.0.1:<port> */
  url: string;
  requests: RecordedRequest[];
  /** What the server answers from now on (the requests recorded so far are forgotten). */
  answer(handler: VendorHandler): void;
  close(): Promise<void>;
}

export async function startSearchVendor(): Promise<SearchVendorServer> {
  const requests: RecordedRequest[] = [];
  let handler: VendorHandler = () => ({ status: 404, body: "no handler" });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const request: RecordedRequest = { method: req.method ?? "GET", path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      requests.push(request);
      const reply = handler(request);
      if (reply.hang) return;
      const json = typeof reply.body === "object";
      res.writeHead(reply.status ?? 200, { "content-type": json ? "application/json" : "text/html; charset=utf-8", ...reply.headers });
      res.end(json ? JSON.stringify(reply.body) : (reply.body ?? ""));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    answer(next) {
      handler = next;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
