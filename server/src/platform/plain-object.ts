/** A JSON object (not null, not an array): what parsed input must be before its keys are read. */
export const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
