import type { TFunction } from "i18next";
import type { EditorNode, FlowComponentInfo } from "../flowTypes";

/** CONTRACT STUB (issue 17): the form helper replaces this file. A one-line summary of a node's settings for the canvas. */
export function nodeSummary(_node: EditorNode, _component: FlowComponentInfo, _t: TFunction): string {
  return "";
}
