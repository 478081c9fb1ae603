import { failure, RETURN_CODES } from "../../rest/envelope";
import { PythonException } from "../../rest/python-repr";
import type { Action } from "../../policies";
import type { SignedIn } from "../../policies/principal";
import { DomainError } from "../../platform/errors";
import type { Services } from "../../platform/services";
import type { Document } from "../document.entity";
import type { KnowledgeBase } from "../knowledge-base.entity";

/**
 * The ownership questions every document and chunk endpoint asks first, answered by the knowledge-base policy
 * through the services (a tenant's members see its knowledge bases, team members use shared ones, and only the
 * owner changes them); each endpoint words the refusal its own way, as RAGFlow does.
 */

/** A refusal already shaped as RAGFlow's envelope; handlers return it as they are. */
export class Refusal extends Error {
  constructor(readonly body: Record<string, unknown>) {
    super(String(body.message));
  }
}

export const refuse = (message: string, code: number = RETURN_CODES.DATA_ERROR) => new Refusal(failure(code, message));

/** Runs a handler, answering a Refusal with its envelope. */
export async function answering(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Refusal) return error.body;
    throw error;
  }
}

/** RAGFlow answers "you don't own it" alike whether the dataset is unseen or only not the caller's to change. */
const isRefusal = (error: unknown) => error instanceof DomainError && (error.kind === "NOT_FOUND" || error.kind === "FORBIDDEN");

/** The knowledge base if the principal may act on it so (read, by default), else null. */
export async function usableDataset(services: Services, principal: SignedIn, id: string, action: Action = "read"): Promise<KnowledgeBase | null> {
  try {
    return await services.knowledgeBases.accessible(principal, id, action);
  } catch (error) {
    if (isRefusal(error)) return null;
    throw error;
  }
}

/** The knowledge base, or the refusal `message`. */
export async function datasetOr(services: Services, principal: SignedIn, id: string, message: string, action: Action = "read"): Promise<KnowledgeBase> {
  const kb = await usableDataset(services, principal, id, action);
  if (!kb) throw refuse(message);
  return kb;
}

/** The document if it is in that knowledge base and the principal may act on it so, else null. */
export async function documentIn(services: Services, principal: SignedIn, datasetId: string, documentId: string, action: Action = "read"): Promise<Document | null> {
  try {
    const document = await services.documents.accessible(principal, documentId, action);
    return document.knowledgeBaseId === datasetId ? document : null;
  } catch (error) {
    if (isRefusal(error)) return null;
    throw error;
  }
}

export async function documentOr(services: Services, principal: SignedIn, datasetId: string, documentId: string, message: string, action: Action = "read"): Promise<Document> {
  const document = await documentIn(services, principal, datasetId, documentId, action);
  if (!document) throw refuse(message);
  return document;
}

/** Python's type name of a JSON value, for the TypeError texts RAGFlow's handlers leak. */
export function pythonTypeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "string") return "str";
  if (Array.isArray(value)) return "list";
  return "dict";
}

/** Python's truthiness of a JSON value: null, false, 0, "", [] and {} are false. */
export function pythonTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object" && value !== null) return Object.keys(value).length > 0;
  return Boolean(value);
}

/** `", ".join(items)` in Python: a TypeError naming the first item that is not a string. */
export function checkStringItems(items: unknown[]): void {
  const index = items.findIndex((item) => typeof item !== "string");
  if (index >= 0) throw new PythonException("TypeError", `sequence item ${index}: expected str instance, ${pythonTypeName(items[index])} found`);
}

/** Python's int() of a query value: a ValueError (code 100) when it is not an integer. */
export function pythonInt(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\s*[+-]?\d+\s*$/.test(value)) throw new PythonException("ValueError", `invalid literal for int() with base 10: '${value}'`);
  return Number(value);
}

/**
 * RAGFlow's duplicate-id rule (contract §1.11): the ids once each, and a message per repeated id.
 */
export function uniqueIds(ids: string[], kind: string): { unique: string[]; duplicateErrors: string[] } {
  const unique: string[] = [];
  const duplicateErrors: string[] = [];
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) {
      const error = `Duplicate ${kind} ids: ${id}`;
      if (!duplicateErrors.includes(error)) duplicateErrors.push(error);
    } else {
      seen.add(id);
      unique.push(id);
    }
  }
  return { unique, duplicateErrors };
}

/** All values of a repeated query parameter (`suffix=pdf&suffix=txt`). */
export function queryValues(value: unknown): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String).filter((v) => v !== "");
}
