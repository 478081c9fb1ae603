import { TenantMember } from "../auth/tenant-member.entity";
import { createAssistant } from "../chat/testing/support";
import { FIELD_MAX_ROWS } from "../graphql/field-costs";
import type { SignedIn } from "../policies/principal";
import { newId } from "../platform/ids";
import { startTestServer, type TestServer } from "../testing/app";
import { apiUser, type ApiUser } from "../testing/rest-support";
import { MAX_PAGE_SIZE } from "./works.service";

/**
 * My space lists what a user made and may read, across kinds, newest activity first, paged and searched by the
 * database; a teammate's team-shared things come with their badge, a stranger's never, and nothing in the bin.
 */

let server: TestServer;
let owner: ApiUser;
let member: ApiUser;
let stranger: ApiUser;
const ids: Record<string, string> = {};

const gql = <T = Record<string, any>>(user: ApiUser, query: string, variables: Record<string, unknown> = {}) => server.graphql<T>(query, variables, user.token); // eslint-disable-line @typescript-eslint/no-explicit-any

const WORKS = `query($kind: WorkKind, $search: String, $page: Int, $pageSize: Int) {
  works(kind: $kind, search: $search, page: $page, pageSize: $pageSize) { total items { kind id name variant teamShared mine activityAt counts { name value } can { rename share delete } } }
}`;

interface Listed {
  total: number;
  items: { kind: string; id: string; name: string; variant: string | null; teamShared: boolean; mine: boolean; activityAt: string; counts: { name: string; value: number }[]; can: { rename: boolean; share: boolean; delete: boolean } }[];
}

async function works(user: ApiUser, variables: Record<string, unknown> = {}): Promise<Listed> {
  const response = await gql<{ works: Listed }>(user, WORKS, variables);
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  return response.data.works;
}

const names = (listed: Listed) => listed.items.map((item) => item.name);
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

async function principalOf(user: ApiUser): Promise<SignedIn> {
  return (await server.services.principalFor(`Bearer ${user.token}`)) as SignedIn;
}

async function createKnowledgeBase(user: ApiUser, name: string, permission = "me"): Promise<string> {
  const created = await gql(user, `mutation($input: KnowledgeBaseInput!) { createKnowledgeBase(input: $input) { id } }`, { input: { name, permission } });
  return created.data!.createKnowledgeBase.id;
}

async function createFlow(user: ApiUser, title: string, permission = "me"): Promise<string> {
  const created = await gql(user, `mutation($input: CreateFlowInput!) { createFlow(input: $input) { id } }`, { input: { title, permission } });
  if (!created.data) throw new Error(JSON.stringify(created.errors));
  return created.data.createFlow.id;
}

/** Sets when a row last changed, so that the order under test does not hang on how fast the setup ran. */
const touch = (table: string, id: string, at: Date) => server.platform.db.query(`UPDATE ${table} SET updated_at = $2 WHERE id = $1`, [id, at]);

beforeAll(async () => {
  server = await startTestServer();
  [owner, member, stranger] = [await apiUser(server), await apiUser(server), await apiUser(server)];
  await server.platform.db.getRepository(TenantMember).insert({ tenantId: owner.tenantId, userId: member.tenantId, role: "normal" });

  ids.atlas = await createKnowledgeBase(owner, "Atlas of trails", "team");
  ids.router = await createFlow(owner, "Router", "team");
  ids.draft = await createFlow(owner, "Draft flow");
  const principal = await principalOf(owner);
  ids.folder = (await server.services.files.createFolder(principal, null, "Maps")).id;
  ids.notes = (await server.services.files.createEmpty(principal, ids.folder, "notes.txt")).id;
  ids.desk = (await createAssistant(server, owner, { name: "Help desk" })).id;
  ids.strangerFlow = await createFlow(stranger, "Stranger's router", "team");

  // Activity, newest first: the desk's conversation (10 min), Atlas's document (20 min), Router (30), notes (40), Maps (50), Draft (60), the search (70).
  await touch("chat_assistant", ids.desk, minutesAgo(600));
  const conversation = newId();
  await server.platform.db.query(
    `INSERT INTO chat_conversation (id, assistant_id, tenant_id, user_id, source, name, created_at, updated_at) VALUES ($1, $2, $3, $3, 'web', 'Opening hours', $4, $4)`,
    [conversation, ids.desk, owner.tenantId, minutesAgo(10)],
  );
  await server.platform.db.query(
    `INSERT INTO chat_message (id, conversation_id, position, role, content, status) VALUES ($1, $3, 0, 'user', 'When do you open?', 'done'), ($2, $3, 1, 'assistant', 'At nine.', 'done')`,
    [newId(), newId(), conversation],
  );
  const document = await gql(owner, `mutation($kb: ID!) { createEmptyDocument(knowledgeBaseId: $kb, name: "ridge.txt") { id } }`, { kb: ids.atlas });
  await touch("knowledge_base", ids.atlas, minutesAgo(500));
  await touch("document", document.data!.createEmptyDocument.id, minutesAgo(20));
  await touch("flow", ids.router, minutesAgo(30));
  await touch("file", ids.notes, minutesAgo(40));
  await touch("file", ids.folder, minutesAgo(50));
  await touch("flow", ids.draft, minutesAgo(60));
  ids.ridge = newId();
  await server.platform.db.query(
    `INSERT INTO search_record (id, tenant_id, created_by, question, knowledge_base_ids, content, status, updated_at) VALUES ($1, $2, $2, 'Where is the ridge?', $3, 'North of the lake [ID:0].', 'done', $4)`,
    [ids.ridge, owner.tenantId, JSON.stringify([ids.atlas]), minutesAgo(70)],
  );
});
afterAll(() => server.close());

describe("my space's works", () => {
  it("lists every kind the user made, newest activity first (a knowledge base by its latest document, an assistant by its latest conversation)", async () => {
    const listed = await works(owner);
    expect(names(listed)).toEqual(["Help desk", "Atlas of trails", "Router", "notes.txt", "Maps", "Draft flow", "Where is the ridge?"]);
    expect(listed.total).toBe(7);
    expect(listed.items.map((item) => item.kind)).toEqual(["assistant", "knowledgeBase", "flow", "file", "file", "flow", "search"]);
    // A search is named by its question: it has nothing to rename, nor to share.
    expect(listed.items[6].can).toEqual({ rename: false, share: false, delete: true });
    expect(listed.items.find((item) => item.name === "Maps")).toMatchObject({ variant: "folder", counts: [{ name: "items", value: 1 }] });
    expect(listed.items.find((item) => item.name === "Atlas of trails")!.counts).toEqual([
      { name: "documents", value: 1 },
      { name: "chunks", value: 0 },
    ]);
  });

  it("pages on the server, the pages adding up to the whole list", async () => {
    const first = await works(owner, { page: 1, pageSize: 4 });
    const second = await works(owner, { page: 2, pageSize: 4 });
    expect(names(first)).toEqual(["Help desk", "Atlas of trails", "Router", "notes.txt"]);
    expect(names(second)).toEqual(["Maps", "Draft flow", "Where is the ridge?"]);
    expect(second.total).toBe(7);
    expect(FIELD_MAX_ROWS["Query.works"]).toBe(MAX_PAGE_SIZE);
  });

  it("searches names in any case and filters by kind", async () => {
    expect(names(await works(owner, { search: "ATLAS" }))).toEqual(["Atlas of trails"]);
    expect(names(await works(owner, { search: "r", kind: "flow" }))).toEqual(["Router", "Draft flow"]);
    expect(names(await works(owner, { kind: "file" }))).toEqual(["notes.txt", "Maps"]);
    expect(names(await works(owner, { search: "ridge" }))).toEqual(["Where is the ridge?"]);
    expect((await works(owner, { search: "100%" })).total).toBe(0);
  });

  it("shows a teammate the team's shared flow and knowledge base with their badge, and nothing private", async () => {
    const listed = await works(member);
    expect(names(listed)).toEqual(["Atlas of trails", "Router"]);
    expect(listed.items.every((item) => item.teamShared && !item.mine)).toBe(true);
    // The team may change a shared knowledge base but not delete it (the knowledge-base policy).
    expect(listed.items[0].can).toEqual({ rename: true, share: true, delete: false });
    // Sharing a flow with the team is its maker's choice: the teammate may change it, not unshare it.
    expect(listed.items[1].can).toEqual({ rename: true, share: false, delete: false });
    expect((await works(owner)).items[0]).toMatchObject({ mine: true, teamShared: false, can: { rename: true, share: true, delete: true } });
  });

  it("never shows a stranger's work, shared with their own team or not", async () => {
    expect(names(await works(owner))).not.toContain("Stranger's router");
    expect(names(await works(stranger))).toEqual(["Stranger's router"]);
  });

  it("leaves out what is deleted into the recycle bin until it is restored, and a deleted assistant", async () => {
    expect((await gql(owner, `mutation($id: ID!) { deleteFlow(id: $id) }`, { id: ids.router })).errors).toBeUndefined();
    await server.platform.db.query(`UPDATE chat_assistant SET status = '0' WHERE id = $1`, [ids.desk]);
    try {
      expect(names(await works(owner))).toEqual(["Atlas of trails", "notes.txt", "Maps", "Draft flow", "Where is the ridge?"]);
      expect(names(await works(member))).toEqual(["Atlas of trails"]);
    } finally {
      const bin = await gql(owner, `{ recycleBin(kind: flow) { items { id itemId } } }`);
      const entry = bin.data!.recycleBin.items.find((item: { itemId: string }) => item.itemId === ids.router);
      expect((await gql(owner, `mutation($ids: [ID!]!) { restoreFromBin(ids: $ids) { itemId } }`, { ids: [entry.id] })).errors).toBeUndefined();
      await touch("flow", ids.router, minutesAgo(30));
      await server.platform.db.query(`UPDATE chat_assistant SET status = '1' WHERE id = $1`, [ids.desk]);
    }
    expect(names(await works(owner))).toContain("Router");
  });

  it("gives a larger preview only when asked: a flow's drawing, a knowledge base's documents, an assistant's last conversation, a search's answer", async () => {
    const PREVIEWS = `{ works(pageSize: 3) { items { name preview { outline documents { name chunkCount } conversationName messages { role content } } } } }`;
    const listed = await gql<{ works: { items: { name: string; preview: Record<string, any> }[] } }>(owner, PREVIEWS); // eslint-disable-line @typescript-eslint/no-explicit-any
    const [desk, atlas, router] = listed.data!.works.items.map((item) => item.preview);
    expect(desk).toMatchObject({ conversationName: "Opening hours", messages: [{ role: "user", content: "When do you open?" }, { role: "assistant", content: "At nine." }] });
    expect(atlas.documents).toEqual([{ name: "ridge.txt", chunkCount: 0 }]);
    expect(router.outline.nodes.length).toBeGreaterThan(0);
    const search = await gql(owner, `{ works(kind: search) { items { preview { answer } } } }`);
    expect(search.data!.works.items[0].preview.answer).toBe("North of the lake.");
  });
});
