/**
 * The address of the chunk merge page (/search/merge?chunks=<id>,<id>,…), the contract between the pages that choose
 * chunks (search results, a document's chunk page) and the merge page: the chunk ids in the order chosen.
 */
export function mergeAddress(chunkIds: string[]): string {
  return `/search/merge?chunks=${chunkIds.map(encodeURIComponent).join(",")}`;
}

/** The chunk ids of the merge page's `chunks` parameter, in order, without blanks or repeats. */
export function chunkIdsOf(parameter: string | null): string[] {
  return [...new Set((parameter ?? "").split(",").map((id) => id.trim()).filter(Boolean))];
}
