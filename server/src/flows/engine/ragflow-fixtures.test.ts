import type { ComponentDefinition, RoutePort } from "../component";
import { CORE_COMPONENTS } from "../components/core";
import { importFlow } from "../dsl-format";
import { ragflowFixtureFiles, readRagflowFixture } from "../testing/ragflow-fixtures";
import { runTestTurn } from "../testing/run-flow";
import { isPlainObject } from "../../platform/plain-object";

/**
 * RAGFlow's own flows run through the engine, with stand-ins for the components that need a model or an outside
 * service (their own tests are theirs): the turns, routes, joins and loops of real files, not of sketches.
 */
const files = ragflowFixtureFiles();
const CORE = new Set(CORE_COMPONENTS.map((c) => c.name));

function standIn(name: string): ComponentDefinition {
  const base = { name, category: "core" as const, icon: "", params: [] };
  if (name === "Categorize") {
    const categories = (params: Record<string, unknown>) => Object.entries(isPlainObject(params.category_description) ? params.category_description : {});
    return {
      ...base,
      routes: (params) => categories(params).map(([category, value]): RoutePort => ({ handle: category, target: isPlainObject(value) && typeof value.to === "string" ? value.to : null, label: category, literal: true })),
      // The category named in the input, else the last one (RAGFlow's fallback).
      async run({ params, input }) {
        const all = categories(params);
        const chosen = all.find(([category]) => input.toLowerCase().includes(category.toLowerCase())) ?? all.at(-1)!;
        const to = isPlainObject(chosen[1]) ? String(chosen[1].to) : "";
        return { content: to, next: to ? [to] : [] };
      },
    };
  }
  if (name === "Relevant") {
    return {
      ...base,
      routes: (params) => [{ handle: "yes", target: String(params.yes ?? "") || null, label: "yes" }, { handle: "no", target: String(params.no ?? "") || null, label: "no" }],
      async run({ params }) {
        return { content: String(params.yes), next: [String(params.yes)] };
      },
    };
  }
  return {
    ...base,
    async run({ input, say, speaking }) {
      const content = `${name} on "${input.slice(0, 30)}"`;
      if (speaking) say(content);
      return { content };
    },
  };
}

describe.each(files)("RAGFlow's %s", (file) => {
  it("runs its first two turns", async () => {
    const { dsl } = importFlow(readRagflowFixture(file));
    const extra = [...new Set(Object.values(dsl.components).map((c) => c.obj.component_name))].filter((name) => !CORE.has(name)).map(standIn);
    const begin = dsl.components.begin.obj.params;
    const inputs = Object.fromEntries((Array.isArray(begin.query) ? begin.query : []).filter(isPlainObject).map((field) => [String(field.key), Array.isArray(field.options) && field.options.length > 0 ? String(field.options[0]) : "1"]));

    const first = await runTestTurn(dsl, null, { inputs }, { extra });
    expect({ status: first.status, error: first.error }).toEqual({ status: expect.stringMatching(/^(waiting|finished)$/), error: undefined });
    if (first.status === "finished") return; // a task-style flow (Interpreter) did all its work at once
    expect(first.answer).toBe(typeof begin.prologue === "string" ? begin.prologue : "Hi! I'm your smart assistant. What can I do for you?");

    const second = await runTestTurn(dsl, first.state, { message: "hello about the product" }, { extra });
    expect({ status: second.status, error: second.error }).toEqual({ status: expect.stringMatching(/^(waiting|finished)$/), error: undefined });
    expect(second.answer).not.toBe("");
    expect(second.state.path.at(-1)!.length).toBeGreaterThan(1);
  });
});
