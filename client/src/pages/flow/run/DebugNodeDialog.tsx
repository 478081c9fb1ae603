import type { EditorNode } from "../flowTypes";

/** CONTRACT STUB (issue 17): the run helper replaces this file. Runs one node alone on edited inputs (debugFlowComponent). */
export interface DebugNodeDialogProps {
  flowId: string;
  /** The node to run, with the params being edited; null: closed. */
  node: EditorNode | null;
  beforeRun: () => Promise<boolean>;
  onClose: () => void;
}

export function DebugNodeDialog(_props: DebugNodeDialogProps) {
  return null;
}
