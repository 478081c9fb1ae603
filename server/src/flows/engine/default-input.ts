import type { FlowGraph } from "./graph";

/** Components a default input looks through: hubs and routers carry no text of their own (RAGFlow's `get_input`). */
const TRANSPARENT = new Set(["Switch", "Concentrator"]);
const ROUTERS = new Set(["Categorize", "Relevant"]);

export interface InputSource {
  content: string;
  /** The component whose output it is (undefined: nothing ran before, or the user's message). */
  from?: string;
}

/**
 * A component's default input (RAGFlow's `get_input` when it has no input variables): the output of the most
 * recent component run before it (this turn's path, after the one before), looking through Switch and
 * Concentrator, and through Categorize and Relevant except for a Switch; an Answer upstream (or Begin, in a turn
 * that carries a message, for any reader but an Answer) means the user's message. Unlike RAGFlow only the component's ancestors count, so a
 * parallel branch never reads its neighbour's output.
 */
export function defaultInput(graph: FlowGraph, readerId: string, recent: readonly string[], outputs: Record<string, { content: string }>, question: string, fallback: string): InputSource {
  const reader = graph.nameOf(readerId);
  const ancestors = graph.ancestors(readerId);
  for (let i = recent.length - 1; i >= 0; i--) {
    const id = recent[i];
    if (id === readerId || !ancestors.has(id)) continue;
    const name = graph.nameOf(id);
    if (TRANSPARENT.has(name) || (ROUTERS.has(name) && reader !== "Switch")) continue;
    if (graph.isInteraction(id)) return { content: question };
    // An Answer right after Begin says the prologue, as RAGFlow's does, even when the first turn carries a message.
    if (name === "Begin" && question !== "" && !graph.isInteraction(readerId)) return { content: question };
    const output = outputs[id];
    if (output) return { content: output.content, from: id };
  }
  return { content: fallback };
}
