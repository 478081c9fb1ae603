import type { FlowComponentsQuery, FlowProblemFieldsFragment } from "../../graphql/gql/graphql";

/**
 * What the parts of the flow editor share: the canvas (editor/), the node forms (form/), the run panel (run/) and the
 * publish dialog (publish/). The stored format is RAGFlow's canvas DSL (server/src/flows/dsl.ts): a component's params
 * live in `dsl.components[id].obj.params`, its display name in the drawing (`graph.nodes[i].data.name`). When the editor
 * saves, the server takes the links from the drawing's edges (server/src/flows/drawing.ts): an edge leaving a routing
 * component's handle (a Categorize category, a Switch case, Relevant's yes/no) is that port's target.
 */

/** A component as the registry describes it (palette entry, form, outputs, connection rules). */
export type FlowComponentInfo = FlowComponentsQuery["flowComponents"][number];

/** A problem validateFlow found: on a component (and field, dotted) or on the flow as a whole. */
export type FlowProblem = FlowProblemFieldsFragment;

/** One component of the flow being edited. */
export interface EditorNode {
  /** The component id ("begin", "Retrieval:BlueFoxesSing"). */
  id: string;
  /** Its display name, unique in the flow (§5). */
  name: string;
  /** RAGFlow's component_name ("Retrieval"). */
  componentName: string;
  params: Record<string, unknown>;
}

/** A routing component's outgoing port and where the edge leaving it goes. */
export interface RouteView {
  /** The edge's sourceHandle ("Case 1", a category's name, "yes", "end_cpn_id"). */
  handle: string;
  /** The text to show: the message key translated, or the user's own text. */
  label: string;
  /** The display name of the component its edge leads to; null while not connected. */
  targetName: string | null;
}

/** What a node did in the run shown (or will do): the canvas colours nodes by it, the run panel lists it. */
export type NodeRunStatus = "waiting" | "running" | "done" | "failed" | "skipped";

export interface NodeRunState {
  status: NodeRunStatus;
  elapsedMs?: number | null;
  error?: string | null;
  /** What it read: [{component_id, content}]. */
  inputs?: unknown;
  /** What it gave (content, items, values, reference, notes). */
  output?: Record<string, unknown> | null;
}
