import type { ParamRendererProps } from "../../../components/ParamForm";
import type { ParamDraft, ParamProblems } from "../../../components/paramForm.logic";
import type { FlowFormChoicesQuery } from "../../../graphql/gql/graphql";
import type { EditorNode, FlowComponentInfo, RouteView } from "../flowTypes";
import type { ReferenceGroup } from "./references";

/** What the flow widgets of a node's form read beside their own param: the flow around the node, and the choices offered. */
export interface WidgetContext {
  node: EditorNode;
  component: FlowComponentInfo;
  nodes: EditorNode[];
  components: FlowComponentInfo[];
  /** The variable picker's choices for this node. */
  groups: ReferenceGroup[];
  routes: RouteView[];
  choices: FlowFormChoicesQuery | undefined;
  /** The form's draft (numbers as typed), and a change of several params at once (a model preset). */
  draft: ParamDraft;
  patch: (values: ParamDraft) => void;
  /** Every problem of the node's params by dotted path (the server's and the form's own). */
  problems: ParamProblems;
  /** The canvas moves the edges of renamed ports (a category renamed, a case removed); null: the port is gone. */
  onPortsRenamed?: (renames: Record<string, string | null>) => void;
}

export interface WidgetProps extends ParamRendererProps {
  context: WidgetContext;
}
