/**
 * What a GraphQL field costs, in points of the operation budget (graphql/budget.ts). A point is about one
 * row read or written; a field not listed here costs 1 when it returns an object and nothing when it returns
 * a scalar, since the object it belongs to is already paid for. The fields listed do real work beyond that:
 * retrieval, a model call, a password hash, a network fetch, a scan of many rows. Their children are still
 * counted on top, times the page size.
 */
export const FIELD_COSTS: Record<string, number> = {
  // Scores the 128+ best keyword candidates by both similarities, embeds the question, reads the page's chunks.
  "Query.retrieve": 500,
  // Retrieval, then a chat model writing the answer (streamed afterwards, but started here).
  "Mutation.ask": 500,
  "Mutation.regenerateAnswer": 500,
  // A call to the model provider, which may take seconds.
  "Mutation.testModelConnection": 200,
  // Fetches a web page, then parses it.
  "Mutation.crawlWebPage": 200,
  // A flow turn: its components may retrieve, call models and reach outside services (queued, but started here).
  "Mutation.startFlowRun": 500,
  // One component, run at once: it may retrieve or call a model.
  "Mutation.debugFlowComponent": 500,
  // Reads the file from the object store and converts it in a parse process (unless its preview is kept).
  "Query.documentPreview": 100,
  // Reads every message of the period.
  "Query.chatStatistics": 200,
  // Reads a knowledge base's whole entity graph.
  "Query.knowledgeGraph": 200,
  // The /force explorer: degrees over the chosen knowledge graphs' relations, then the shown entities' relations or chunks.
  "Query.graphExplorer": 200,
  "Query.searchGraphEntities": 100,
  "Query.graphEntity": 100,
  "Query.graphKnowledgeBases": 50,
  // With a search, a keyword search over the document's chunks.
  "Query.chunks": 20,
  // Reads up to 100 chunks, then embeds the merged text or stores it as a document queued for parsing.
  "Mutation.mergeChunks": 100,
  // My space: every readable item of every kind is read for its sort key before a page is cut.
  "Query.works": 50,
  // A work's slide: a page of documents, a conversation's messages or a flow's drawing.
  "Work.preview": 10,
  // Queues parsing for each document, deleting their old chunks.
  "Mutation.runParsing": 50,
  // The file manager: a call to a user's S3 service; documents made and queued for parsing; a folder deleted with all below it.
  "Mutation.listS3Objects": 200,
  "Mutation.importFromS3": 200,
  "Mutation.linkFiles": 50,
  "Mutation.deleteFiles": 50,
  // The recycle bin: each entry destroyed for good takes its rows (a knowledge base: all its chunks) and releases bytes.
  "Mutation.purgeFromBin": 50,
  "Mutation.emptyRecycleBin": 100,
  // A deliberately slow password hash each.
  "Mutation.register": 50,
  "Mutation.login": 50,
  "Mutation.changePassword": 50,
  // An e-mail through the SMTP server, which may take seconds.
  "Mutation.inviteTeamMember": 50,
  "Mutation.resendTeamInvitation": 50,
};

/**
 * Fields whose service caps its page whatever size is asked (page size 0 is otherwise priced as 1,000 rows). Each
 * service checks in a test that its cap is the one written here.
 */
export const FIELD_MAX_ROWS: Record<string, number> = {
  "Query.files": 100,
  "Query.works": 100,
};
