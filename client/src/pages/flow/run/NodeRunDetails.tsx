import type { NodeRunState } from "../flowTypes";

/** CONTRACT STUB (issue 17): the run helper replaces this file. A node's last run: status, time, inputs, output, error. */
export function NodeRunDetails(_props: { state: NodeRunState }) {
  return null;
}
