import { execFileSync } from "node:child_process";
import { flowEndpoints, KEY_PLACEHOLDER } from "./endpoints";

const byId = (endpoints: ReturnType<typeof flowEndpoints>, id: string) => endpoints.find((e) => e.id === id)!;

/** What a POSIX shell makes of the command: its words, printed one per line by the shell itself. */
function shellWords(command: string): string[] {
  const script = `set -- ${command.replace(/^curl/, "").replace(/\\\n/g, " ")}; for word in "$@"; do printf '%s\\0' "$word"; done`;
  return execFileSync("sh", ["-c", script], { encoding: "utf8" }).split("\0").slice(0, -1);
}

describe("the published flow's endpoints", () => {
  const endpoints = flowEndpoints("https://cairn.example.com", "f1", "ragflow-abc");

  it("names the agents API's paths, as the server serves them", () => {
    expect(endpoints.map((e) => [e.id, e.method, e.url])).toEqual([
      ["completions", "POST", "https://cairn.example.com/api/v1/agents/f1/completions"],
      ["createSession", "POST", "https://cairn.example.com/api/v1/agents/f1/sessions"],
      ["listSessions", "GET", "https://cairn.example.com/api/v1/agents/f1/sessions"],
      ["openai", "POST", "https://cairn.example.com/api/v1/agents_openai/f1/chat/completions"],
    ]);
  });

  it("streams with -N and stream: true, and answers once with stream: false", () => {
    const completions = byId(endpoints, "completions");
    const streamed = shellWords(completions.curl(true));
    expect(streamed[0]).toBe("-N");
    expect(JSON.parse(streamed.at(-1)!)).toEqual({ question: "Hello", stream: true });
    const once = shellWords(completions.curl(false));
    expect(once).not.toContain("-N");
    expect(JSON.parse(once.at(-1)!)).toEqual({ question: "Hello", stream: false });
    expect(JSON.parse(shellWords(byId(endpoints, "openai").curl(true)).at(-1)!)).toEqual({ model: "model", messages: [{ role: "user", content: "Hello" }], stream: true });
  });

  it("sends the key as a bearer, or a placeholder when none is at hand", () => {
    expect(shellWords(byId(endpoints, "listSessions").curl(false))).toContain("Authorization: Bearer ragflow-abc");
    expect(shellWords(byId(flowEndpoints("http://localhost:9380", "f1", ""), "createSession").curl(false))).toContain(`Authorization: Bearer ${KEY_PLACEHOLDER}`);
  });

  it("asks Begin's inputs as RAGFlow's {key: {type, value}}, and survives quotes in the question", () => {
    const withInputs = flowEndpoints("http://localhost:9380", "f1", "k", [{ key: "city", type: "line" }], "It's late");
    expect(JSON.parse(shellWords(byId(withInputs, "completions").curl(false)).at(-1)!)).toEqual({ question: "It's late", stream: false, inputs: { city: { type: "line", value: "" } } });
  });
});
