import type { SignedIn } from "../policies/principal";
import type { KnowledgeBase } from "../knowledge/knowledge-base.entity";
import { RUN } from "../knowledge/document.entity";
import type { HttpTestServer, TestServer } from "./app";
import { createDataset, uploadDocuments, waitForParsing, type ApiUser, type FilePart } from "./rest-support";

/**
 * The one fixture for "a knowledge base with these files, parsed": created, uploaded, parsed, and waited for until
 * every document has finished (by its state, never by a fixed time). Enrichment is off unless the test asks for it:
 * RAPTOR and GraphRAG are knowledge-base tasks of their own and keywords or questions per chunk cost a model call
 * each, so a test of retrieval or chat does not pay for them, and a test of them says so.
 */

/** The parser settings that turn every enrichment off (merged into the chunk method's defaults). */
export const ENRICHMENT_OFF = {
  auto_keywords: 0,
  auto_questions: 0,
  raptor: { use_raptor: false },
  graphrag: { use_graphrag: false },
} as const;

export type Files = FilePart[] | Record<string, string | Buffer>;

export interface ParsedFixtureOptions {
  /** Parser settings merged over the chunk method's defaults (and over ENRICHMENT_OFF). */
  parserConfig?: Record<string, unknown>;
  /** Keep the chunk method's enrichment defaults (RAPTOR and GraphRAG on for General) instead of turning them off. */
  enrichment?: boolean;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 120_000;

const partsOf = (files: Files): FilePart[] => (Array.isArray(files) ? files : Object.entries(files).map(([name, data]) => ({ name, data })));

function parserSettings(options: ParsedFixtureOptions): Record<string, unknown> {
  return { ...(options.enrichment ? {} : ENRICHMENT_OFF), ...options.parserConfig };
}

/**
 * Through the services, for tests that hold a principal: a new knowledge base of `owner`'s (`create` as given: name,
 * embedding model, chunk method…) with `files` parsed. Throws when a document does not end done.
 */
export async function parsedKnowledgeBase(
  server: TestServer,
  owner: SignedIn,
  files: Files,
  options: ParsedFixtureOptions & { name?: string; embeddingModel?: string; chunkMethod?: string } = {},
): Promise<{ knowledgeBase: KnowledgeBase; documentIds: string[] }> {
  const { knowledgeBases, documents } = server.services;
  const created = await knowledgeBases.create(owner, {
    name: options.name ?? `kb-${Math.random().toString(36).slice(2)}`,
    embeddingModel: options.embeddingModel,
    chunkMethod: options.chunkMethod,
  });
  const settings = parserSettings(options);
  if (Object.keys(settings).length > 0) await knowledgeBases.update(owner, created.id, { parserConfig: settings });
  const uploaded = await documents.upload(owner, created.id, partsOf(files).map((f) => ({ name: f.name, data: Buffer.from(f.data) })));
  const documentIds = uploaded.documents.map((d) => d.id);
  await documents.runParsing(owner, documentIds);
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  for (;;) {
    const { items } = await documents.list(owner, created.id, { pageSize: documentIds.length });
    const failed = items.filter((d) => d.run !== RUN.done && d.run !== RUN.running && d.run !== RUN.unstarted);
    if (failed.length > 0) throw new Error(`parsing failed: ${JSON.stringify(failed.map((d) => [d.name, d.run, d.progressMsg]))}`);
    if (items.every((d) => d.run === RUN.done)) break;
    if (Date.now() > deadline) throw new Error(`parsing did not finish: ${JSON.stringify(items.map((d) => [d.name, d.run, d.progress]))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { knowledgeBase: await knowledgeBases.accessible(owner, created.id), documentIds };
}

/**
 * Over the REST API as RAGFlow's suite builds it (create, upload, POST …/chunks, poll the document list), for tests
 * that hold an API key; it needs nothing but HTTP, so it works on a shared server too. `body` is the create request's.
 */
export async function parsedDataset(
  server: HttpTestServer,
  user: ApiUser,
  files: Files,
  options: ParsedFixtureOptions & { body?: Record<string, unknown> } = {},
): Promise<{ datasetId: string; documentIds: string[] }> {
  const datasetId = await createDataset(server, user, options.body);
  const settings = parserSettings(options);
  if (Object.keys(settings).length > 0) {
    const updated = await server.rest("PUT", `/api/v1/datasets/${datasetId}`, { token: user.key, body: { parser_config: settings } });
    if (updated.body.code !== 0) throw new Error(JSON.stringify(updated.body));
  }
  const documentIds = await uploadDocuments(server, user, datasetId, partsOf(files));
  const parsing = await server.rest("POST", `/api/v1/datasets/${datasetId}/chunks`, { token: user.key, body: { document_ids: documentIds } });
  if (parsing.body.code !== 0) throw new Error(JSON.stringify(parsing.body));
  const docs = await waitForParsing(server, user, datasetId, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  if (docs.some((d) => d.run !== "DONE")) throw new Error(`parsing failed: ${JSON.stringify(docs)}`);
  return { datasetId, documentIds };
}
