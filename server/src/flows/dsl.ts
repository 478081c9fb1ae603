/**
 * The stored format of an agent flow: RAGFlow's canvas DSL (v0.14, `agent/canvas.py`) and a superset of it, so
 * that a RAGFlow DSL or template imports unchanged and an export imports again, in Cairn or in RAGFlow.
 *
 * - `components`: by id ("begin", "Generate:PetiteTrainsCross"); `obj.component_name` names a registered
 *   component and `obj.params` holds its parameters; `upstream`/`downstream` are the edges; `parent_id` puts a
 *   component inside a container (an Iteration).
 * - `graph`: the editor's layout (React Flow nodes and edges). A node's `data.name` is the component's display
 *   name (unique within the flow, spec §5); `data.form` mirrors the params in RAGFlow's files.
 * - `globals`: v0.20+'s `sys.*` values (`sys.query`, `sys.user_id`, `sys.conversation_turns`, `sys.files`), and
 *   `variables`: the flow's own global variables (v0.20+ `variables`, `env.*`).
 *
 * Run state (RAGFlow keeps `history`, `messages`, `path`, `answer`, `reference` inside the DSL and so its debugger
 * changes the saved agent) is not part of a flow: a session keeps its own (`FlowState`, run-types.ts).
 */

export interface ComponentObject {
  component_name: string;
  params: Record<string, unknown>;
}

export interface DslComponent {
  obj: ComponentObject;
  upstream: string[];
  downstream: string[];
  parent_id?: string;
}

export interface GraphNode {
  id: string;
  type?: string;
  position: { x: number; y: number };
  data?: { label?: string; name?: string; form?: Record<string, unknown>; [key: string]: unknown };
  parentId?: string;
  [key: string]: unknown;
}

export interface GraphEdge {
  id?: string;
  source: string;
  target: string;
  /** A routing component's port (a Categorize category's name, a Switch case "Case 1" or `end_cpn_id`, "yes"/"no"). */
  sourceHandle?: string | null;
  targetHandle?: string | null;
  [key: string]: unknown;
}

export interface FlowDsl {
  components: Record<string, DslComponent>;
  graph?: { nodes: GraphNode[]; edges: GraphEdge[] };
  globals?: Record<string, unknown>;
  variables?: Record<string, unknown>;
}

/** The id RAGFlow gives the Begin component in every flow. */
export const BEGIN_ID = "begin";
