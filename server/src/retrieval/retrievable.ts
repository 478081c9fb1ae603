/**
 * The one rule of what retrieval may return: enabled chunks of enabled documents that are not being
 * parsed nor in the recycle bin, in the knowledge bases searched and, when documents are named, in those documents. It is
 * written in the three shapes the queries that need it take, side by side so that they cannot drift apart.
 */

/**
 * SQL restricting chunks `c` (joined to their documents `d`) to what retrieval may return; `scope` is a
 * varchar[] parameter of knowledge base ids, `documents` a varchar[] parameter that is null for "any".
 */
export function retrievableChunks(scope: string, documents: string): string {
  return `c.knowledge_base_id = ANY(${scope}) AND c.available AND d.enabled AND d.run <> '1' AND d.binned_in IS NULL AND (${documents}::varchar[] IS NULL OR c.document_id = ANY(${documents}))`;
}

/**
 * The same rule for rows `p` that carry a chunk id and a document id (postings), without reading the
 * chunks: what is left out is rare and partially indexed (disabled chunks, disabled, parsing or binned documents),
 * so it is looked up, not what is kept.
 */
export function retrievablePostings(scope: string, documents: string): string {
  return `(${documents}::varchar[] IS NULL OR p.document_id = ANY(${documents}))
    AND p.document_id NOT IN (SELECT id FROM document WHERE knowledge_base_id = ANY(${scope}) AND NOT enabled UNION ALL SELECT id FROM document WHERE run = '1' AND knowledge_base_id = ANY(${scope}) UNION ALL SELECT id FROM document WHERE knowledge_base_id = ANY(${scope}) AND binned_in IS NOT NULL)
    AND p.chunk_id NOT IN (SELECT id FROM chunk WHERE knowledge_base_id = ANY(${scope}) AND NOT available)`;
}

/**
 * The same rule as the list of what it leaves out of the knowledge bases searched, rows (excluded, id) where
 * `excluded` is 'document' or 'chunk', for scoring in the server (retrieval/keyword-search.ts); the named
 * documents, when there are, are kept there.
 */
export function unretrievable(scope: string): string {
  return `SELECT 'document' AS excluded, id FROM document WHERE knowledge_base_id = ANY(${scope}) AND NOT enabled
    UNION ALL SELECT 'document', id FROM document WHERE run = '1' AND knowledge_base_id = ANY(${scope})
    UNION ALL SELECT 'document', id FROM document WHERE knowledge_base_id = ANY(${scope}) AND binned_in IS NOT NULL
    UNION ALL SELECT 'chunk', id FROM chunk WHERE knowledge_base_id = ANY(${scope}) AND NOT available`;
}
