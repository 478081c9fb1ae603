/** RAGFlow's envelopes (API contract §1.3): which keys appear decides whether existing clients read the answer right. */

/** `result` success: `{code: 0, data}`, data left out when null, no message. */
export function success(data?: unknown): Record<string, unknown> {
  return data === undefined || data === null ? { code: 0 } : { code: 0, data };
}

/** `error_data` / `result` failure: `{code, message}`, no data. */
export function failure(code: number, message: string): Record<string, unknown> {
  return { code, message };
}

/** `json_result`: always code, message and data. */
export function jsonResult(code: number, message: string, data: unknown = null): Record<string, unknown> {
  return { code, message, data };
}

export const RETURN_CODES = {
  SUCCESS: 0,
  EXCEPTION_ERROR: 100,
  ARGUMENT_ERROR: 101,
  DATA_ERROR: 102,
  OPERATING_ERROR: 103,
  AUTHENTICATION_ERROR: 109,
  NOT_FOUND: 404,
} as const;
