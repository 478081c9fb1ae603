import type { ComponentDefinition, ComponentOutput } from "../../component";
import { DESCRIPTION } from "../../params";

/** The list an Iteration walks: its input cut at the delimiter (a "\n" typed in a form means a line break). */
export function itemsOf(input: string, delimiter: string): string[] {
  const cut = delimiter.replace(/\\n/g, "\n").replace(/\\t/g, "\t");
  const parts = cut === "" ? [input] : input.split(cut);
  return parts.map((part) => part.trim()).filter((part) => part !== "");
}

/**
 * Runs the components inside it (those whose `parent_id` is this Iteration) once per item of its input, in
 * order; its output lists what the body gave for each item (RAGFlow v0.16's Iteration, `delimiter` ",").
 */
export const Iteration: ComponentDefinition = {
  name: "Iteration",
  category: "core",
  icon: "LuRepeat",
  params: [
    { key: "delimiter", type: "string", label: "flow.components.Iteration.params.delimiter", help: "flow.components.Iteration.params.delimiterHelp", default: "," },
    DESCRIPTION,
  ],
  outputs: [{ name: "results", label: "flow.components.Iteration.outputs.results", type: "list" }],
  restrictedTargets: ["Begin"],
  container: true,
  async run({ componentId, input, params, invoke }) {
    const results: ComponentOutput[] = [];
    for (const item of itemsOf(input, String(params.delimiter ?? ","))) results.push(await invoke(componentId, item));
    const contents = results.map((result) => result.content);
    return { content: contents.join("\n"), items: contents.map((content) => ({ content })), values: { results: contents } };
  },
};
