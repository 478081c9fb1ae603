import type { FileSort as ServerSort } from "../../graphql/gql/graphql";

/** The columns the file table sorts by, as the server names its orders (the server sorts; this only says which way a click turns). */
export type SortColumn = `${ServerSort}`;

export interface FileSort {
  column: SortColumn;
  descending: boolean;
}

/** As RAGFlow: the newest uploads first. */
export const DEFAULT_SORT: FileSort = { column: "createdAt", descending: true };

/** A click on a column header: the same column turns the other way; a new one starts A→Z for names, largest or newest first otherwise. */
export function sortAfterClick(current: FileSort, column: SortColumn): FileSort {
  if (current.column === column) return { column, descending: !current.descending };
  return { column, descending: column !== "name" };
}
