import { DomainError } from "../../../platform/errors";
import { runComponent } from "../../testing/run-component";
import { Code } from "./code";

const runCode = (code: string, extra: Parameters<typeof runComponent>[1] = {}) => runComponent(Code, { ...extra, params: { code, ...(extra.params ?? {}) } });
const failure = async (code: string) => {
  try {
    await runCode(code);
  } catch (error) {
    return error instanceof DomainError ? { key: error.messageKey, params: error.params } : error;
  }
  return null;
};

describe("Code", () => {
  it("runs main(args) with the input, the input variables and the named arguments, and gives its result as output", async () => {
    const { output } = await runCode("function main(args) { return { sum: Number(args.a) + Number(args.b), input: args.input, inputs: args.inputs }; }", {
      input: "upstream",
      inputs: [{ component_id: "x", content: "first" }],
      params: { parameters: [{ key: "a", component_id: "begin@a" }, { key: "b", component_id: "begin@b" }] },
      variables: { a: "2", b: "40" },
    });
    expect(output.values).toEqual({ sum: 42, input: "upstream", inputs: ["first"] });
    expect(JSON.parse(output.content)).toEqual({ sum: 42, input: "upstream", inputs: ["first"] });
  });

  it("gives a text result as the text, and waits for an async main", async () => {
    expect((await runCode("async function main(args) { return 'hello ' + args.input; }", { input: "you" })).output.content).toBe("hello you");
    expect((await runCode("function main() { return [1, 2]; }")).output).toEqual({ content: "[1,2]", values: { result: [1, 2] } });
  });

  it("has no access to the host: no require, process, fetch nor timers", async () => {
    const { output } = await runCode("function main() { return [typeof require, typeof process, typeof fetch, typeof setTimeout, typeof globalThis.std].join(','); }");
    expect(output.content).toBe("undefined,undefined,undefined,undefined,undefined");
  });

  it("tells what went wrong: a syntax error, a thrown error, no main, a promise that never settles", async () => {
    expect(await failure("function main( {")).toMatchObject({ key: "flow.components.Code.errors.failed", params: { reason: expect.stringMatching(/^SyntaxError/) } });
    expect(await failure("function main() { throw new Error('bad input'); }")).toEqual({ key: "flow.components.Code.errors.failed", params: { reason: "Error: bad input" } });
    expect(await failure("const x = 1;")).toEqual({ key: "flow.components.Code.errors.noMain", params: {} });
    expect(await failure("function main() { return new Promise(() => {}); }")).toEqual({ key: "flow.components.Code.errors.pending", params: {} });
  });

  it("stops code that runs too long or takes too much memory, while the server's own thread goes on", async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    expect(await failure("function main() { while (true) {} }")).toEqual({ key: "flow.components.Code.errors.timeout", params: { seconds: 2 } });
    clearInterval(ticker);
    expect(ticks).toBeGreaterThan(20);
    expect(await failure("function main() { return 'x'.repeat(40 * 1024 * 1024).length; }")).toEqual({ key: "flow.components.Code.errors.memory", params: { megabytes: 32 } });
  });
});
