import { TenantMember } from "../auth/tenant-member.entity";
import type { TenantRole } from "../policies/principal";
import { startTestServer, type TestServer } from "../testing/app";
import { parsedDataset } from "../testing/knowledge-bases";
import { apiUser, createDataset, type ApiUser } from "../testing/rest-support";

/**
 * A knowledge base shared with the team (permission "team"): a normal member of the owner's tenant reads, uses and
 * changes it (specification §6) but may not delete it; an invited user who has not agreed, and any other tenant, do not see it.
 * The same over GraphQL and over the RAGFlow-compatible REST API, since both ask the one policy.
 */

let server: TestServer;
let owner: ApiUser;
let member: ApiUser;
let invited: ApiUser;
let stranger: ApiUser;
let teamBase: string;
let privateBase: string;

async function join(user: ApiUser, role: TenantRole): Promise<void> {
  await server.services.platform.db.getRepository(TenantMember).insert({ tenantId: owner.tenantId, userId: user.tenantId, role });
}

const gql = <T = Record<string, any>>(user: ApiUser, query: string, variables: Record<string, unknown> = {}) => server.graphql<T>(query, variables, user.token); // eslint-disable-line @typescript-eslint/no-explicit-any
const errorCode = (response: { errors?: readonly { extensions?: Record<string, unknown> }[] }) => response.errors?.[0]?.extensions?.code;

beforeAll(async () => {
  server = await startTestServer({ MODEL_CACHE_DIR: "/tmp/cairn-model-cache" });
  [owner, member, invited, stranger] = [await apiUser(server), await apiUser(server), await apiUser(server), await apiUser(server)];
  await join(member, "normal");
  await join(invited, "invite");
  teamBase = await createDataset(server, owner, { name: "team handbook", permission: "team" });
  privateBase = await createDataset(server, owner, { name: "owner's notes" });
  await gql(owner, `mutation($kb: ID!) { createEmptyDocument(knowledgeBaseId: $kb, name: "faq.txt") { id } }`, { kb: teamBase });
});
afterAll(() => server.close());

describe("over GraphQL", () => {
  const LIST = `{ knowledgeBases(pageSize: 100) { items { id } } }`;
  const GET = `query($id: ID!) { knowledgeBase(id: $id) { id name } }`;
  const listed = async (user: ApiUser) => (await gql(user, LIST)).data!.knowledgeBases.items.map((kb: { id: string }) => kb.id);

  it("lists and opens the team knowledge base for a member, and not the owner's private one", async () => {
    expect(await listed(member)).toEqual([teamBase]);
    expect((await gql(member, GET, { id: teamBase })).data!.knowledgeBase.name).toBe("team handbook");
    expect(errorCode(await gql(member, GET, { id: privateBase }))).toBe("NOT_FOUND");
    const documents = await gql(member, `query($kb: ID!) { documents(knowledgeBaseId: $kb) { total } }`, { kb: teamBase });
    expect(documents.data!.documents.total).toBe(1);
  });

  it("lets a member retrieve from it", async () => {
    const retrieved = await gql(member, `query($input: RetrievalInput!) { retrieve(input: $input) { total } }`, { input: { question: "anything", knowledgeBaseIds: [teamBase] } });
    expect(retrieved.errors).toBeUndefined();
  });

  it("lets a member change it and add to it, and refuses deleting it", async () => {
    const update = await gql(member, `mutation($id: ID!) { updateKnowledgeBase(id: $id, input: { description: "by the team" }) { id } }`, { id: teamBase });
    expect(update.errors).toBeUndefined();
    const added = await gql(member, `mutation($kb: ID!) { createEmptyDocument(knowledgeBaseId: $kb, name: "mine.txt") { id } }`, { kb: teamBase });
    expect(added.errors).toBeUndefined();
    const refused = await gql(member, `mutation($id: ID!) { deleteKnowledgeBase(id: $id) }`, { id: teamBase });
    expect(errorCode(refused)).toBe("FORBIDDEN");
    expect(refused.errors![0].message).toBe("Only the owner of this knowledge base, its team's admins or the person who made it can delete it.");
    expect((await gql(owner, GET, { id: teamBase })).data!.knowledgeBase.name).toBe("team handbook");
    expect((await gql(owner, `query($kb: ID!) { documents(knowledgeBaseId: $kb) { total } }`, { kb: teamBase })).data!.documents.total).toBe(2);
    const removed = await gql(member, `mutation($ids: [ID!]!) { deleteDocuments(ids: $ids) }`, { ids: [added.data!.createEmptyDocument.id] });
    expect(removed.errors).toBeUndefined();
  });

  it("shows nothing to an invited user who has not agreed, nor to another tenant", async () => {
    for (const user of [invited, stranger]) {
      expect(await listed(user)).toEqual([]);
      expect(errorCode(await gql(user, GET, { id: teamBase }))).toBe("NOT_FOUND");
      expect(errorCode(await gql(user, `mutation($id: ID!) { deleteKnowledgeBase(id: $id) }`, { id: teamBase }))).toBe("NOT_FOUND");
    }
  });

  it("lets the owner change it", async () => {
    const update = await gql(owner, `mutation($id: ID!) { updateKnowledgeBase(id: $id, input: { description: "for everyone" }) { id } }`, { id: teamBase });
    expect(update.errors).toBeUndefined();
  });
});

describe("over the REST API", () => {
  const rest = (user: ApiUser, method: string, path: string, body?: unknown) => server.rest(method, path, { token: user.key, body });

  it("lists the team dataset and its documents for a member", async () => {
    const datasets = await rest(member, "GET", "/api/v1/datasets");
    expect(datasets.body.data.map((d: { id: string }) => d.id)).toEqual([teamBase]);
    const documents = await rest(member, "GET", `/api/v1/datasets/${teamBase}/documents`);
    expect(documents.body).toMatchObject({ code: 0, data: { total: 1 } });
  });

  it("lets a member retrieve from it", async () => {
    const retrieved = await rest(member, "POST", "/api/v1/retrieval", { question: "anything", dataset_ids: [teamBase] });
    expect(retrieved.body.code).toBe(0);
  });

  it("lets a member change it, and answers deleting it as RAGFlow answers one who does not own it", async () => {
    expect((await rest(member, "PUT", `/api/v1/datasets/${teamBase}`, { description: "kept by the team" })).body).toMatchObject({ code: 0 });
    expect((await rest(member, "DELETE", "/api/v1/datasets", { ids: [teamBase] })).body).toEqual({
      code: 108,
      message: `User '${member.tenantId}' lacks permission for datasets: '${teamBase}'`,
    });
    // Deleting "all" deletes only what the caller may delete: nothing of the owner's.
    expect((await rest(member, "DELETE", "/api/v1/datasets", { ids: null })).body.code).toBe(0);
    expect((await rest(owner, "GET", "/api/v1/datasets")).body.data.map((d: { id: string }) => d.id).sort()).toEqual([teamBase, privateBase].sort());
  });

  it("shows nothing to an invited user who has not agreed", async () => {
    expect((await rest(invited, "GET", "/api/v1/datasets")).body.data).toEqual([]);
    expect((await rest(invited, "GET", `/api/v1/datasets/${teamBase}/documents`)).body).toEqual({ code: 102, message: `You don't own the dataset ${teamBase}. ` });
  });
});

describe("through an invitation", () => {
  const rest = (user: ApiUser, method: string, path: string, body?: unknown) => server.rest(method, path, { token: user.key, body });
  const ask = async (user: ApiUser, chatId: string) => {
    const session = await rest(user, "POST", `/api/v1/chats/${chatId}/sessions`, {});
    return (await rest(user, "POST", `/api/v1/chats/${chatId}/completions`, { question: "What causes tides?", session_id: session.body.data.id, stream: false })).body.data;
  };

  it("lets a member who agreed use the team's knowledge base in an assistant of their own, whose answers cite it until the member leaves", async () => {
    const joiner = await apiUser(server);
    const email = (await gql(joiner, `{ me { email } }`)).data!.me.email;
    // No SMTP here: the invitation shows in the app only.
    const sent = await gql(owner, `mutation($email: String!) { inviteTeamMember(email: $email) { id mail } }`, { email });
    expect(sent.data!.inviteTeamMember.mail).toBe("none");
    expect((await gql(joiner, `mutation($id: ID!) { agreeTeamInvitation(id: $id) }`, { id: sent.data!.inviteTeamMember.id })).errors).toBeUndefined();

    const { datasetId: tides } = await parsedDataset(server, owner, { "tides.txt": "Tides are caused by the gravitational pull of the moon on the oceans." }, { body: { name: "tides", permission: "team" } });
    const chat = await rest(joiner, "POST", "/api/v1/chats", { name: "my tides helper", dataset_ids: [tides] });
    expect(chat.body.code).toBe(0);
    expect((await ask(joiner, chat.body.data.id)).reference.doc_aggs).toEqual([expect.objectContaining({ doc_name: "tides.txt" })]);

    expect((await gql(joiner, `mutation($tenantId: ID!) { leaveTeam(tenantId: $tenantId) }`, { tenantId: owner.tenantId })).errors).toBeUndefined();
    expect((await ask(joiner, chat.body.data.id)).reference.doc_aggs ?? []).toEqual([]);
  });
});
