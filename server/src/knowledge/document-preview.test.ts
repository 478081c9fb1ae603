import { sharedTestServer, signUpAndIn, type HttpTestServer } from "../testing/app";
import { apiUser, createDataset, uploadDocuments } from "../testing/rest-support";
import { sampleDocx } from "../ingestion/testing/sample-files";

/** documentPreview: a document's file rendered, for whoever may read the document and nobody else. */

const PREVIEW = `query Preview($id: ID!) { documentPreview(id: $id) { kind fileName html sheets { name rows totalRows } reason { messageKey } } }`;

let server: HttpTestServer;
beforeAll(async () => {
  server = await sharedTestServer();
});

test("renders an uploaded DOCX and CSV for their owner, and tells a stranger the document is not there", async () => {
  const owner = await apiUser(server);
  const dataset = await createDataset(server, owner);
  const [docx, csv] = await uploadDocuments(server, owner, dataset, [
    { name: "guide.docx", data: await sampleDocx() },
    { name: "people.csv", data: Buffer.from("Name,City\nAda,London\n") },
  ]);

  const rendered = await server.graphql<{ documentPreview: { kind: string; html: string } }>(PREVIEW, { id: docx }, owner.token);
  expect(rendered.errors).toBeUndefined();
  expect(rendered.data!.documentPreview.kind).toBe("html");
  expect(rendered.data!.documentPreview.html).toContain("<h1>Onboarding guide</h1>");
  const table = await server.graphql<{ documentPreview: unknown }>(PREVIEW, { id: csv }, owner.token);
  expect(table.data!.documentPreview).toMatchObject({ kind: "table", fileName: "people.csv", sheets: [{ rows: [["Name", "City"], ["Ada", "London"]], totalRows: 2 }] });

  const stranger = await signUpAndIn(server);
  const refused = await server.graphql(PREVIEW, { id: docx }, stranger.token);
  expect(refused.data).toBeNull();
  expect(refused.errors![0].extensions.messageKey).toBe("errors.knowledge.documentNotFound");
});
