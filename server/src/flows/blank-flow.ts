import { withDefaults } from "../platform/param-spec";
import { componentNamed } from "./components";
import { BEGIN_ID, type FlowDsl } from "./dsl";

/** The params a component starts with: its declared defaults. */
const defaultParams = (name: "Begin" | "Answer") => withDefaults(componentNamed(name)!.params, {});

/** The id RAGFlow's editor gives a new component's node. */
const ANSWER_ID = "Answer:Start";

/** A new flow: Begin, whose prologue the Answer speaks, then waits for the user (RAGFlow's blank agent with its first Interact). */
export function blankDsl(): FlowDsl {
  const begin = defaultParams("Begin");
  const answer = defaultParams("Answer");
  return {
    components: {
      [BEGIN_ID]: { obj: { component_name: "Begin", params: begin }, upstream: [], downstream: [ANSWER_ID] },
      [ANSWER_ID]: { obj: { component_name: "Answer", params: answer }, upstream: [BEGIN_ID], downstream: [] },
    },
    graph: {
      nodes: [
        { id: BEGIN_ID, type: "beginNode", position: { x: 50, y: 200 }, data: { label: "Begin", name: "Begin" } },
        { id: ANSWER_ID, type: "logicNode", position: { x: 350, y: 200 }, data: { label: "Answer", name: "Interact" } },
      ],
      edges: [{ id: `${BEGIN_ID}-${ANSWER_ID}`, source: BEGIN_ID, target: ANSWER_ID, sourceHandle: null, targetHandle: null, type: "buttonEdge" }],
    },
  };
}
