import { DomainError } from "../../platform/errors";
import { countTokens } from "../../models/tokens";
import type { RetrievalHit } from "../../retrieval/retrieval.service";
import { KNOWLEDGE_VARIABLE, type PromptVariable } from "../prompt-defaults";

/**
 * The system prompt of an answer: the assistant's prompt with `{knowledge}` filled with the retrieved
 * chunks and every other `{key}` with the request's value (RAGFlow's `chat()` in dialog_service.py).
 */

/** A required variable the request did not give: RAGFlow's KeyError "Miss parameter: {key}". */
export const MissingParameter = (key: string) => new DomainError("BAD_REQUEST", "errors.conversation.missParameter", { key });

/**
 * Values of the prompt's variables: each non-optional one must be given (a missing optional one
 * becomes a blank, as in RAGFlow); `knowledge` is always filled by retrieval.
 */
export function variableValues(parameters: readonly PromptVariable[], given: Record<string, unknown>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const { key, optional } of parameters) {
    if (key === KNOWLEDGE_VARIABLE) continue;
    const value = given[key];
    if (value === undefined || value === null) {
      if (!optional) throw MissingParameter(key);
      values[key] = " ";
    } else values[key] = typeof value === "string" ? value : JSON.stringify(value);
  }
  return values;
}

/** The keys of a prompt's variables that must be given; for checking a question before anything is stored. */
export function checkVariables(parameters: readonly PromptVariable[], given: Record<string, unknown>): void {
  variableValues(parameters, given);
}

/** Python's str.format over the known keys; other braces are left as they are (a prompt may show JSON). */
export function fillPrompt(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? values[key] : whole));
}

/** RAGFlow's kb_prompt node: "\n├── key: value". */
const node = (key: string, value: string | null | undefined) => (value ? `\n├── ${key}: ${value}` : "");

export interface KnowledgeChunk {
  hit: RetrievalHit;
  /** The citation id, `[ID:<index>]`: the chunk's index in reference.chunks. */
  index: number;
}

/**
 * Orders the hits document by document (documents in the order of their best hit) and keeps as many as
 * fit the token budget; each chunk's position in this list is its citation id.
 */
export function knowledgeChunks(hits: RetrievalHit[], tokenBudget: number): RetrievalHit[] {
  const byDocument = new Map<string, RetrievalHit[]>();
  for (const hit of hits) byDocument.set(hit.chunk.documentId, [...(byDocument.get(hit.chunk.documentId) ?? []), hit]);
  const ordered = [...byDocument.values()].flat();
  const kept: RetrievalHit[] = [];
  let used = 0;
  for (const hit of ordered) {
    const tokens = hit.chunk.tokenCount || countTokens(hit.chunk.content);
    if (kept.length > 0 && used + tokens > tokenBudget) break;
    kept.push(hit);
    used += tokens;
  }
  return kept;
}

/**
 * The `{knowledge}` text: RAGFlow's kb_prompt layout (v0.15+), one "ID: n" block per chunk, numbered from
 * `firstId` (a flow's Generate numbers the hits of several Retrieval components in one sequence).
 */
export function formatKnowledge(hits: RetrievalHit[], firstId = 0): string {
  return hits
    .map((hit, index) => `\nID: ${firstId + index}${node("Title", hit.documentName)}\n└── Content:\n${hit.chunk.content}`)
    .join("\n");
}

/** RAGFlow's citation instructions (prompts/citation_prompt.md, abridged). */
export const CITATION_GUIDE = `# Citation requirements
- Cite the knowledge you use with its ID, in the format [ID:i] (for example [ID:0] or [ID:3][ID:5]), right after the sentence it supports.
- Cite only IDs that appear in the knowledge base below; never invent one. Use at most four citations per sentence.
- Do not cite anything when the knowledge base holds nothing relevant.
`;

/** RAGFlow's default prompt wraps `{knowledge}` like this; without knowledge bases the whole passage goes. */
const KNOWLEDGE_PASSAGE = /[ \t]*Here is the knowledge base:\s*\{knowledge\}\s*The above is the knowledge base\.?/i;

export interface SystemPromptInput {
  template: string;
  values: Record<string, string>;
  /** null: the assistant has no knowledge bases (plain chat). */
  knowledge: string | null;
  quote: boolean;
}

export function systemPrompt(input: SystemPromptInput): string {
  let template = input.template;
  if (input.knowledge === null) template = template.replace(KNOWLEDGE_PASSAGE, "").replace(/\{knowledge\}/g, "").trimEnd();
  const filled = fillPrompt(template, { ...input.values, ...(input.knowledge === null ? {} : { [KNOWLEDGE_VARIABLE]: input.knowledge }) });
  // The guide comes first: a custom prompt may end with the knowledge itself, which must stay last.
  return input.quote && input.knowledge !== null ? `${CITATION_GUIDE}\n${filled}` : filled;
}
