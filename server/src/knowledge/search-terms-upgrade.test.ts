import { startTestServer, type TestServer } from "../testing/app";
import { apiUser, createDataset, uploadDocuments, waitForParsing } from "../testing/rest-support";
import { indexText } from "./search-terms";
import { SEARCH_TERMS_VERSION, upgradeSearchTerms } from "./search-terms-upgrade";

let server: TestServer;
const query = <T>(sql: string, parameters?: unknown[]): Promise<T[]> => server.platform.db.query(sql, parameters);

beforeAll(async () => {
  server = await startTestServer();
  const user = await apiUser(server);
  const datasetId = await createDataset(server, user);
  const documentIds = await uploadDocuments(server, user, datasetId, [{ name: "cells.txt", data: "TNF-α and IL-6 in T cells." }]);
  await server.rest("POST", `/api/v1/datasets/${datasetId}/chunks`, { token: user.key, body: { document_ids: documentIds } });
  await waitForParsing(server, user, datasetId);
}, 60_000);
afterAll(() => server?.close());

describe("stored search terms made by an older text analysis", () => {
  it("are analysed again once, with the postings rebuilt, and the record says the current version", async () => {
    expect(await query(`SELECT version FROM search_terms_analysis`)).toEqual([{ version: SEARCH_TERMS_VERSION }]);
    await query(`UPDATE chunk SET terms = '{"stale": 1}'::jsonb, term_count = 1`);
    await query(`UPDATE search_terms_analysis SET version = 0`);

    expect(await upgradeSearchTerms(server.platform.db)).toBeGreaterThan(0);
    const [chunk] = await query<{ id: string; title: string; keywords: string[]; questions: string[]; content: string; terms: Record<string, number> }>(
      `SELECT id, title, keywords, questions, content, terms FROM chunk`,
    );
    expect(chunk.terms).toEqual(indexText(chunk).terms);
    const postings = await query<{ term: string }>(`SELECT term FROM chunk_term WHERE chunk_id = $1`, [chunk.id]);
    expect(postings.map((p) => p.term).sort()).toEqual(Object.keys(chunk.terms).sort());
    expect(await query(`SELECT version FROM search_terms_analysis`)).toEqual([{ version: SEARCH_TERMS_VERSION }]);

    expect(await upgradeSearchTerms(server.platform.db)).toBe(0);
  });
});
