import type { EditorNode, FlowComponentInfo, FlowProblem, RouteView } from "../flowTypes";

/** CONTRACT STUB (issue 17): the form helper replaces this file. The editor's drawer shows one node's form. */
export interface NodeFormProps {
  flowId: string;
  node: EditorNode;
  component: FlowComponentInfo;
  /** The registry, to name components in pickers. */
  components: FlowComponentInfo[];
  /** Every component node of the flow. */
  nodes: EditorNode[];
  /** Ids of the components upstream of this node (transitively): the variable pickers offer their outputs and Begin's inputs. */
  upstream: string[];
  /** A routing component's ports and where their edges lead (edges are made on the canvas). */
  routes: RouteView[];
  /** validateFlow's problems on this node; `field` null: the node as a whole, "name": its name, else a param path. */
  problems: FlowProblem[];
  onRename: (name: string) => void;
  onChange: (params: Record<string, unknown>) => void;
}

export function NodeForm(_props: NodeFormProps) {
  return null;
}
