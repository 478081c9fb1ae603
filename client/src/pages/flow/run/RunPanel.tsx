import type { EditorNode } from "../flowTypes";
import type { FlowRunController } from "./useFlowRun";

/** CONTRACT STUB (issue 17): the run helper replaces this file. The editor's side panel for running the flow. */
export interface RunPanelProps {
  flowId: string;
  controller: FlowRunController;
  /** The Begin node: its `query` params are the inputs asked for. */
  begin: EditorNode | null;
  /** Saves pending edits first; false: do not run. */
  beforeRun: () => Promise<boolean>;
  /** Why the flow may not run now (invalid nodes), translated; null when it may. */
  blockedReason: string | null;
  onClose: () => void;
}

export function RunPanel(_props: RunPanelProps) {
  return null;
}
