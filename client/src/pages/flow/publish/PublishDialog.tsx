/** CONTRACT STUB (issue 17): the publish helper replaces this file. The flow's id, endpoints with curl, embed options. */
export interface PublishDialogProps {
  /** null: closed. */
  flow: { id: string; title: string } | null;
  onClose: () => void;
}

export function PublishDialog(_props: PublishDialogProps) {
  return null;
}
