import { sharedTestServer, type HttpTestServer } from "./app";
import { parsedDataset } from "./knowledge-bases";
import { apiUser, type ApiUser } from "./rest-support";

/** The parsed-knowledge-base fixture itself: enrichment off unless asked, every document done, a failed parse refused. */

let server: HttpTestServer;
let user: ApiUser;

beforeAll(async () => {
  server = await sharedTestServer();
  user = await apiUser(server);
});
afterAll(() => server?.close());

const datasetOf = async (id: string) => (await server.rest("GET", `/api/v1/datasets?id=${id}`, { token: user.key })).body.data[0];
const documentsOf = async (id: string) => (await server.rest("GET", `/api/v1/datasets/${id}/documents`, { token: user.key })).body.data.docs;

test("parses every file, with RAPTOR, GraphRAG, keywords and questions off", async () => {
  const { datasetId, documentIds } = await parsedDataset(server, user, { "tides.txt": "Tides follow the moon.", "bread.txt": "Sourdough rises slowly." });
  expect(documentIds).toHaveLength(2);
  const dataset = await datasetOf(datasetId);
  expect(dataset.parser_config).toMatchObject({ auto_keywords: 0, auto_questions: 0, raptor: { use_raptor: false }, graphrag: { use_graphrag: false } });
  // the chunk method's other defaults stay as they were
  expect(dataset.parser_config).toMatchObject({ chunk_token_num: 512, delimiter: "\n" });
  const documents = await documentsOf(datasetId);
  expect(documents.map((d: { run: string; chunk_count: number }) => [d.run, d.chunk_count > 0])).toEqual([["DONE", true], ["DONE", true]]);
});

test("keeps the chunk method's enrichment when a test asks for it, and merges its parser settings", async () => {
  const { datasetId } = await parsedDataset(server, user, { "notes.txt": "Lighthouse keepers inspect the lamps." }, { enrichment: true, parserConfig: { chunk_token_num: 48 } });
  expect((await datasetOf(datasetId)).parser_config).toMatchObject({ chunk_token_num: 48, raptor: { use_raptor: true }, graphrag: { use_graphrag: true } });
});

test("refuses a knowledge base whose parse failed", async () => {
  await expect(parsedDataset(server, user, { "broken.pdf": "not a PDF at all" })).rejects.toThrow(/parsing failed/);
});
