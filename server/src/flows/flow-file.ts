import { DomainError } from "../platform/errors";
import { withDefaults } from "../platform/param-spec";
import { componentNamed } from "./components";
import { BEGIN_ID, type DslComponent, type FlowDsl } from "./dsl";

/**
 * A flow as a file: what export writes and import reads. Export writes RAGFlow's template shape
 * (`{title, description, avatar, dsl}`), so a file goes back into Cairn or RAGFlow; import also takes a bare DSL
 * (`{components, graph, …}`) as RAGFlow's canvases store it. Run state a RAGFlow file carries (`history`,
 * `messages`, `path`, `answer`, `reference`, `embed_id`) is not part of a flow and is dropped.
 */

export interface FlowFile {
  title?: string;
  description?: string | null;
  avatar?: string | null;
  dsl: FlowDsl;
}

/** A stored DSL's size limit: a flow is a graph of settings, not a place for documents. */
export const MAX_DSL_BYTES = 2 * 1024 * 1024;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const invalid = (detail: string) => new DomainError("BAD_REQUEST", "flow.errors.dslInvalid", { detail });

/** The DSL to store: its components checked for shape (the flow's validation is the engine's), run state dropped. */
export function storedDsl(value: unknown): FlowDsl {
  if (!isObject(value) || !isObject(value.components)) throw invalid("components");
  const components: Record<string, DslComponent> = {};
  for (const [id, component] of Object.entries(value.components)) {
    if (!isObject(component) || !isObject(component.obj) || typeof component.obj.component_name !== "string") throw invalid(`components.${id}`);
    const links = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
    components[id] = {
      ...component,
      obj: { ...component.obj, component_name: component.obj.component_name, params: isObject(component.obj.params) ? component.obj.params : {} },
      upstream: links(component.upstream),
      downstream: links(component.downstream),
    } as DslComponent;
  }
  const dsl: FlowDsl = { components };
  if (isObject(value.graph)) dsl.graph = { nodes: Array.isArray(value.graph.nodes) ? value.graph.nodes : [], edges: Array.isArray(value.graph.edges) ? value.graph.edges : [] } as FlowDsl["graph"];
  if (isObject(value.globals)) dsl.globals = value.globals;
  if (isObject(value.variables)) dsl.variables = value.variables;
  if (Buffer.byteLength(JSON.stringify(dsl)) > MAX_DSL_BYTES) throw new DomainError("PAYLOAD_TOO_LARGE", "flow.errors.dslTooLarge", { max: "2 MB" });
  return dsl;
}

/** An imported file's flow: a template-shaped file or a bare DSL, given as JSON text or already parsed. */
export function readFlowFile(file: unknown): FlowFile {
  let value = file;
  if (typeof file === "string") {
    try {
      value = JSON.parse(file);
    } catch {
      throw invalid("JSON");
    }
  }
  if (!isObject(value)) throw invalid("JSON");
  if (isObject(value.dsl)) {
    const text = (v: unknown) => (typeof v === "string" ? v : null);
    return { title: text(value.title) ?? undefined, description: text(value.description), avatar: text(value.avatar), dsl: storedDsl(value.dsl) };
  }
  return { dsl: storedDsl(value) };
}

/** The params a component starts with: its declared defaults (none while it is not registered). */
function defaultParams(name: string): Record<string, unknown> {
  const definition = componentNamed(name);
  return definition ? withDefaults(definition.params, {}) : {};
}

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
        { id: BEGIN_ID, type: "beginNode", position: { x: 50, y: 200 }, data: { label: "Begin", name: "Begin", form: begin } },
        { id: ANSWER_ID, type: "logicNode", position: { x: 350, y: 200 }, data: { label: "Answer", name: "Interact", form: answer } },
      ],
      edges: [{ id: `${BEGIN_ID}-${ANSWER_ID}`, source: BEGIN_ID, target: ANSWER_ID, sourceHandle: null, targetHandle: null, type: "buttonEdge" }],
    },
  };
}
