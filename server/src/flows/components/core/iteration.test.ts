import { runComponent } from "../../testing/run-component";
import { Iteration, itemsOf } from "./iteration";

describe("Iteration", () => {
  it("cuts its input at the delimiter, a typed \\n being a line break", () => {
    expect(itemsOf("a, b,,c ", ",")).toEqual(["a", "b", "c"]);
    expect(itemsOf("one\ntwo", "\\n")).toEqual(["one", "two"]);
    expect(itemsOf("whole, text", "")).toEqual(["whole, text"]);
  });

  it("runs its body once per item, in order, and lists the results", async () => {
    const seen: string[] = [];
    const { output } = await runComponent(Iteration, {
      input: "x;y",
      params: { delimiter: ";" },
      invoke: async (id, item) => {
        seen.push(`${id}:${item}`);
        return { content: item.toUpperCase() };
      },
    });
    expect(seen).toEqual(["Iteration:test:x", "Iteration:test:y"]);
    expect(output).toEqual({ content: "X\nY", items: [{ content: "X" }, { content: "Y" }], values: { results: ["X", "Y"] } });
  });

  it("fails with the body's failure", async () => {
    await expect(runComponent(Iteration, { input: "a", invoke: () => Promise.reject(new Error("body failed")) })).rejects.toThrow("body failed");
  });
});
