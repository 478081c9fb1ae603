import http from "node:http";
import type { AddressInfo } from "node:net";
import { outboundFetch, outboundPolicy } from "../../../platform/outbound";
import { runComponent, testPorts } from "../../testing/run-component";
import { crawler } from "./crawler";
import { invoke } from "./invoke";
import { WEB_TOOL_MAX_BYTES } from "./web";

/** Invoke and Crawler against a local node:http server, through the real outbound guard. */

const PAGE = `<!doctype html><html><head><title>Tea</title><script>var secret = "script text";</script></head>
<body><h1>Green tea</h1><p>Steep it <b>briefly</b>.</p><ul><li>Sencha</li><li>Matcha</li></ul>
<table><tr><th>Name</th><th>Minutes</th></tr><tr><td>Sencha</td><td>2</td></tr></table></body></html>`;

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      if (path.startsWith("/echo")) {
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({ method: request.method, url: path, headers: request.headers, body: Buffer.concat(chunks).toString() }));
      } else if (path === "/page") {
        response.setHeader("content-type", "text/html; charset=utf-8");
        response.end(PAGE);
      } else if (path === "/broken") {
        response.statusCode = 500;
        response.end("boom");
      } else if (path === "/big") {
        response.end(Buffer.alloc(WEB_TOOL_MAX_BYTES + 1024, "a"));
      } else if (path === "/slow") {
        response.write("partial");
        // never ends: the component's time-out must
      } else {
        response.statusCode = 404;
        response.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const echoed = (content: string) => JSON.parse(content) as { method: string; url: string; headers: Record<string, string>; body: string };
const publicOnly = () => {
  const policy = outboundPolicy({ privateNetworks: false, redirects: "any" });
  return testPorts({ fetch: (url, request = {}) => outboundFetch(url, request, policy), outboundPolicy: policy });
};

describe("Invoke", () => {
  const variables = [
    { key: "q", component_id: "Answer:Question" },
    { key: "lang", value: "en" },
  ];
  const values = { "Answer:Question": "green tea", "begin@token": "t0ken" };

  test("GET sends the variables as the query string, with templated headers", async () => {
    const { output } = await runComponent(invoke, {
      params: { url: `${base}/echo?x=1`, method: "get", variables, headers: '{"X-Token": "Bearer {begin@token}"}' },
      variables: values,
    });
    const answer = echoed(output.content);
    expect(answer.method).toBe("GET");
    expect(answer.url).toBe("/echo?x=1&q=green+tea&lang=en");
    expect(answer.headers["x-token"]).toBe("Bearer t0ken");
  });

  test("POST sends them as a JSON body, PUT as a form (RAGFlow's rule)", async () => {
    const post = echoed((await runComponent(invoke, { params: { url: `${base}/echo`, method: "post", variables }, variables: values })).output.content);
    expect(post.method).toBe("POST");
    expect(post.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(post.body)).toEqual({ q: "green tea", lang: "en" });

    const put = echoed((await runComponent(invoke, { params: { url: `${base}/echo`, method: "put", variables }, variables: values })).output.content);
    expect(put.method).toBe("PUT");
    expect(put.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
    expect(put.body).toBe("q=green+tea&lang=en");
  });

  test("a templated JSON body is filled value by value, so a quote in a value stays valid JSON", async () => {
    const { output } = await runComponent(invoke, {
      params: { url: `${base}/echo`, method: "patch", variables, body_type: "json", body: '{"query": "{q}", "who": ["{begin@name}"], "n": 3}' },
      variables: { ...values, "begin@name": 'O"Brien' },
    });
    const answer = echoed(output.content);
    expect(answer.method).toBe("PATCH");
    expect(JSON.parse(answer.body)).toEqual({ query: "green tea", who: ['O"Brien'], n: 3 });
  });

  test("form and raw body templates", async () => {
    const form = echoed(
      (await runComponent(invoke, { params: { url: `${base}/echo`, method: "post", variables, body_type: "form", body: '{"text": "{q} ({lang})"}' }, variables: values })).output.content,
    );
    expect(form.body).toBe("text=green+tea+%28en%29");
    const raw = echoed((await runComponent(invoke, { params: { url: `${base}/echo`, method: "delete", body_type: "raw", body: "ask: {Answer:Question}" }, variables: values })).output.content);
    expect(raw.method).toBe("DELETE");
    expect(raw.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(raw.body).toBe("ask: green tea");
  });

  test("references in the URL are filled in, and a URL without a scheme gets http://", async () => {
    const { output } = await runComponent(invoke, { params: { url: `${base.replace("http://", "")}/echo/{Answer:Question}` }, variables: values });
    expect(echoed(output.content).url).toBe("/echo/green%20tea");
  });

  test("clean_html outputs the page's text", async () => {
    const { output } = await runComponent(invoke, { params: { url: `${base}/page`, clean_html: true } });
    expect(output.content).toBe("Green tea\nSteep it briefly.\nSencha\nMatcha\nName\tMinutes\nSencha\t2");
  });

  test("a status other than 2xx is a translated error with the status", async () => {
    await expect(runComponent(invoke, { params: { url: `${base}/broken` } })).rejects.toMatchObject({
      kind: "OUTSIDE_SERVICE",
      messageKey: "flow.errors.request.status",
      params: { status: 500 },
    });
  });

  test("an answer slower than the time-out is a translated error", async () => {
    await expect(runComponent(invoke, { params: { url: `${base}/slow`, timeout: 1 } })).rejects.toMatchObject({
      kind: "OUTSIDE_SERVICE",
      messageKey: "flow.errors.request.timeout",
      params: { seconds: 1 },
    });
  });

  test("an answer over the size cap is a translated error", async () => {
    await expect(runComponent(invoke, { params: { url: `${base}/big` } })).rejects.toMatchObject({ messageKey: "flow.errors.request.tooLarge" });
  });

  test("a refused address is never reached", async () => {
    await expect(runComponent(invoke, { params: { url: `${base}/echo` }, ports: publicOnly() })).rejects.toMatchObject({ messageKey: "errors.outbound.addressRefused" });
    // Cloud metadata, whatever the policy.
    await expect(runComponent(invoke, { params: { url: "http://169.254.169.254/latest/meta-data/" } })).rejects.toMatchObject({ messageKey: "errors.outbound.addressRefused" });
  });

  test("a proxy is refused (it would bypass the guard)", async () => {
    await expect(runComponent(invoke, { params: { url: `${base}/echo`, proxy: "http://proxy.example:3128" } })).rejects.toMatchObject({
      kind: "BAD_REQUEST",
      messageKey: "flow.errors.request.proxyUnsupported",
    });
    // The form's placeholder is no proxy.
    await expect(runComponent(invoke, { params: { url: `${base}/echo`, proxy: "http://" } })).resolves.toBeDefined();
  });
});

describe("Crawler", () => {
  const crawl = (extract_type: string, input = `Read ${base}/page please`) => runComponent(crawler, { input, params: { extract_type } });

  test("markdown: headings, lists and tables of the page, no scripts", async () => {
    const { output } = await crawl("markdown");
    expect(output.content).toBe("# Green tea\n\nSteep it briefly.\n\n- Sencha\n- Matcha\n\n| Name | Minutes |\n| --- | --- |\n| Sencha | 2 |");
  });

  test("html: the page as served", async () => {
    expect((await crawl("html")).output.content).toBe(PAGE);
  });

  test("content: plain text, not markdown", async () => {
    const { output } = await crawl("content");
    expect(output.content).toBe("Green tea\nSteep it briefly.\nSencha\nMatcha\nName\tMinutes\nSencha\t2");
  });

  test("an input without a URL, a refused address and a failing page are translated errors", async () => {
    await expect(crawl("markdown", "no address here")).rejects.toMatchObject({ messageKey: "flow.components.Crawler.errors.noUrl" });
    await expect(runComponent(crawler, { input: `${base}/page`, ports: publicOnly() })).rejects.toMatchObject({ messageKey: "errors.outbound.addressRefused" });
    await expect(crawl("markdown", `${base}/broken`)).rejects.toMatchObject({ messageKey: "flow.errors.request.status", params: { status: 500 } });
  });
});
