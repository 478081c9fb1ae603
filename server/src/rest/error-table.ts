import type { DomainError } from "../platform/errors";
import { RETURN_CODES } from "./envelope";

/**
 * How a route words the DomainErrors its services throw, as RAGFlow words the same refusal: a table
 * from message keys to RAGFlow's texts. The service keeps the rule; the route only keeps RAGFlow's words.
 * An entry receives the error's params and, for invalid input, the field of the first problem (one key
 * may read differently per field, as a chat model and a rerank model do).
 */
export type RestErrorText = (params: Record<string, unknown>, field: string | undefined) => string;

/** A text alone answers with RAGFlow's usual refusal code, 102 (its `get_error_data_result` default); `code` overrides it. */
export type RestErrorWording = RestErrorText | { code: number; text: RestErrorText };

export type RestErrorTable = Readonly<Record<string, RestErrorWording>>;

/** The code and message a route answers a DomainError with: its table's wording, else the error's own code and English message. */
export function wordedError(table: RestErrorTable | undefined, error: DomainError): { code: number; message: string } {
  const wording = table?.[error.messageKey];
  if (!wording) return { code: error.restCode, message: error.message };
  const field = error.fields[0]?.field;
  if (typeof wording === "function") return { code: RETURN_CODES.DATA_ERROR, message: wording(error.params, field) };
  return { code: wording.code, message: wording.text(error.params, field) };
}
