/** §4's parsing status of a document. */
export const RUN = { unstarted: "0", running: "1", cancelled: "2", done: "3", failed: "4" } as const;
export const RUN_STATUSES = ["0", "1", "2", "3", "4"] as const;

export const RUN_KEYS: Record<string, string> = { "0": "unstarted", "1": "running", "2": "cancelled", "3": "done", "4": "failed" };
export const RUN_COLORS: Record<string, string> = { "0": "gray", "1": "brand", "2": "orange", "3": "green", "4": "red" };
