/** CONTRACT STUB (issue 17): the run helper replaces this file. The flow's runs, newest first, each with its steps. */
export interface RunsDrawerProps {
  flowId: string;
  open: boolean;
  onClose: () => void;
}

export function RunsDrawer(_props: RunsDrawerProps) {
  return null;
}
