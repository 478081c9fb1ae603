/**
 * The service API endpoints of a published flow (contract §10, RAGFlow's agents API), each with a `curl` to paste:
 * completions in an agent session (streamed as server-sent events, or one JSON answer), opening and listing
 * sessions, and the OpenAI-compatible chat completions, which OpenAI's SDKs call unchanged.
 */

export type EndpointId = "completions" | "createSession" | "listSessions" | "openai";

export interface FlowEndpoint {
  id: EndpointId;
  method: "GET" | "POST";
  url: string;
  /** The command, streaming when the endpoint streams at all. */
  curl: (stream: boolean) => string;
  /** Whether `stream` changes anything (the session endpoints answer once). */
  streams: boolean;
}

/** Where a key goes when none is at hand: the reader puts theirs in its place. */
export const KEY_PLACEHOLDER = "<YOUR_API_KEY>";

/** A Begin input as the completions endpoint takes it (RAGFlow: `{key: {type, value}}`). */
export interface EndpointInput {
  key: string;
  type: string;
}

/** Single-quoted for a POSIX shell: a quote inside ends the string, is escaped, and starts it again. */
const shellQuoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function curl(method: "GET" | "POST", url: string, apiKey: string, body?: unknown, stream = false): string {
  const lines = [`curl${stream ? " -N" : ""} -X ${method} ${shellQuoted(url)}`];
  if (body !== undefined) lines.push(`-H 'Content-Type: application/json'`);
  lines.push(`-H ${shellQuoted(`Authorization: Bearer ${apiKey || KEY_PLACEHOLDER}`)}`);
  if (body !== undefined) lines.push(`-d ${shellQuoted(JSON.stringify(body, null, 2))}`);
  return lines.join(" \\\n  ");
}

/** The endpoints of the flow `flowId` on the server at `origin`, with `apiKey` (or the placeholder) in each command. */
export function flowEndpoints(origin: string, flowId: string, apiKey: string, inputs: readonly EndpointInput[] = [], question = "Hello"): FlowEndpoint[] {
  const agent = `${origin}/api/v1/agents/${encodeURIComponent(flowId)}`;
  const beginInputs = inputs.length > 0 ? { inputs: Object.fromEntries(inputs.map((input) => [input.key, { type: input.type, value: "" }])) } : {};
  return [
    {
      id: "completions",
      method: "POST",
      url: `${agent}/completions`,
      streams: true,
      curl: (stream) => curl("POST", `${agent}/completions`, apiKey, { question, stream, ...beginInputs }, stream),
    },
    {
      id: "createSession",
      method: "POST",
      url: `${agent}/sessions`,
      streams: false,
      curl: () => curl("POST", `${agent}/sessions`, apiKey, {}),
    },
    {
      id: "listSessions",
      method: "GET",
      url: `${agent}/sessions`,
      streams: false,
      curl: () => curl("GET", `${agent}/sessions?page=1&page_size=30`, apiKey),
    },
    {
      id: "openai",
      method: "POST",
      url: `${origin}/api/v1/agents_openai/${encodeURIComponent(flowId)}/chat/completions`,
      streams: true,
      curl: (stream) =>
        curl("POST", `${origin}/api/v1/agents_openai/${encodeURIComponent(flowId)}/chat/completions`, apiKey, { model: "model", messages: [{ role: "user", content: question }], stream }, stream),
    },
  ];
}
