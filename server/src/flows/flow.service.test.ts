import { TenantMember } from "../auth/tenant-member.entity";
import { startTestServer, type TestServer } from "../testing/app";
import type { SignedIn } from "../policies/principal";
import { apiUser, type ApiUser } from "../testing/rest-support";
import { FlowService } from "./flow.service";
import { sketchFlow } from "./testing/run-flow";

/**
 * Flows over GraphQL: a title is required and unique in its tenant (spec §5), each save keeps a version (at most
 * FLOW_VERSIONS_KEPT) that can be restored, duplicates and files in and out, and who sees what: another tenant
 * nothing, the team a flow shared with it, as the flow policy says.
 */

let server: TestServer;
let owner: ApiUser;
let member: ApiUser;
let stranger: ApiUser;

const gql = <T = Record<string, any>>(user: ApiUser, query: string, variables: Record<string, unknown> = {}) => server.graphql<T>(query, variables, user.token); // eslint-disable-line @typescript-eslint/no-explicit-any
const errorOf = (response: { errors?: readonly { message: string; extensions?: Record<string, unknown> }[] }) => response.errors?.[0];

const FIELDS = `id title description permission dsl createdAt updatedAt createdBy`;
const CREATE = `mutation($input: CreateFlowInput!) { createFlow(input: $input) { ${FIELDS} } }`;
const UPDATE = `mutation($id: ID!, $input: UpdateFlowInput!) { updateFlow(id: $id, input: $input) { ${FIELDS} } }`;
const GET = `query($id: ID!) { flow(id: $id) { ${FIELDS} } }`;
const LIST = `query($search: String) { flows(search: $search, pageSize: 100) { total items { id title } } }`;

async function createFlow(user: ApiUser, input: Record<string, unknown>): Promise<{ id: string; title: string; dsl: any; updatedAt: string }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const response = await gql(user, CREATE, { input });
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  return response.data.createFlow;
}

beforeAll(async () => {
  server = await startTestServer({ FLOW_VERSIONS_KEPT: "3" });
  [owner, member, stranger] = [await apiUser(server), await apiUser(server), await apiUser(server)];
  await server.services.platform.db.getRepository(TenantMember).insert({ tenantId: owner.tenantId, userId: member.tenantId, role: "normal" });
});
afterAll(() => server.close());

describe("creating and saving", () => {
  it("creates a blank flow of Begin and an Answer", async () => {
    const flow = await createFlow(owner, { title: "  Support desk " });
    expect(flow.title).toBe("Support desk");
    const names = Object.values(flow.dsl.components).map((c: any) => c.obj.component_name); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(names.sort()).toEqual(["Answer", "Begin"]);
    expect(flow.dsl.components.begin.downstream).toHaveLength(1);
  });

  it("refuses a flow without a title, and a title the tenant already has, whatever its case", async () => {
    const empty = await gql(owner, CREATE, { input: { title: "   " } });
    expect(errorOf(empty)?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(errorOf(empty)?.message).toBe("Please input name!");
    await createFlow(owner, { title: "Unique one" });
    const clash = await gql(owner, CREATE, { input: { title: "UNIQUE ONE" } });
    expect(errorOf(clash)?.extensions?.code).toBe("CONFLICT");
    expect(errorOf(clash)?.message).toBe("An agent named “UNIQUE ONE” already exists.");
    // Another tenant may use the same title.
    await expect(createFlow(stranger, { title: "Unique one" })).resolves.toBeDefined();
    const flow = await createFlow(owner, { title: "Renamed later" });
    const renamed = await gql(owner, UPDATE, { id: flow.id, input: { title: "unique ONE" } });
    expect(errorOf(renamed)?.extensions?.code).toBe("CONFLICT");
  });

  it("creates a flow from a template, titled and described in the user's language, and refuses an unknown one", async () => {
    const dsl = sketchFlow({ begin: { name: "Begin", down: ["Answer:a"] }, "Answer:a": { name: "Answer" } });
    // Any message keys will do for the test's own template: "Agent" and "Knowledge Base" in English.
    const flows = new FlowService(server.services.platform, server.services.bin, [{ id: "test", title: "nav.flow", description: "nav.knowledge", needs: [], dsl }]);
    const principal = (await server.services.principalFor(`Bearer ${stranger.token}`)) as SignedIn;
    const first = await flows.create(principal, { templateId: "test" });
    expect(first).toMatchObject({ title: "Agent", description: "Knowledge Base" });
    expect(Object.keys(first.dsl.components).sort()).toEqual(["Answer:a", "begin"]);
    expect((await flows.create(principal, { templateId: "test" })).title).toBe("Agent(1)");
    expect((await flows.create(principal, { templateId: "test", title: "My own" })).title).toBe("My own");
    await expect(flows.create(principal, { templateId: "missing" })).rejects.toMatchObject({ kind: "NOT_FOUND", messageKey: "flow.errors.templateNotFound" });
  });

  it("refuses a DSL that is not a graph of components, changing nothing", async () => {
    const flow = await createFlow(owner, { title: "Shape check" });
    const bad = await gql(owner, UPDATE, { id: flow.id, input: { dsl: { components: { x: { obj: {} } } } } });
    expect(errorOf(bad)?.extensions?.code).toBe("BAD_USER_INPUT");
    expect((await gql(owner, GET, { id: flow.id })).data!.flow.dsl).toEqual(flow.dsl);
  });

  it("saves like an autosave: returns the new updatedAt, and refuses a save based on an older one", async () => {
    const flow = await createFlow(owner, { title: `Refined by autosaves ${Date.now()}` });
    const dsl = { ...flow.dsl, globals: { "env.tone": "friendly" } };
    const saved = (await gql(owner, UPDATE, { id: flow.id, input: { dsl, baseUpdatedAt: flow.updatedAt } })).data!.updateFlow;
    expect(new Date(saved.updatedAt).getTime()).toBeGreaterThan(new Date(flow.updatedAt).getTime());
    expect(saved.dsl.globals).toEqual({ "env.tone": "friendly" });
    const stale = await gql(owner, UPDATE, { id: flow.id, input: { description: "from an old tab", baseUpdatedAt: flow.updatedAt } });
    expect(errorOf(stale)?.extensions?.code).toBe("CONFLICT");
  });

  it("lists with a search and deletes", async () => {
    const flow = await createFlow(owner, { title: "Findable zebra" });
    const found = (await gql(owner, LIST, { search: "ZEBRA" })).data!.flows;
    expect(found.items.map((f: { id: string }) => f.id)).toEqual([flow.id]);
    expect((await gql(owner, `mutation($id: ID!) { deleteFlow(id: $id) }`, { id: flow.id })).data!.deleteFlow).toBe(true);
    expect(errorOf(await gql(owner, GET, { id: flow.id }))?.extensions?.code).toBe("NOT_FOUND");
  });
});

describe("versions", () => {
  const VERSIONS = `query($id: ID!) { flowVersions(flowId: $id) { id title dsl createdAt } }`;

  it("keeps a version per save, the newest FLOW_VERSIONS_KEPT (3 here), and restores one without losing the others", async () => {
    const flow = await createFlow(owner, { title: "Versioned" });
    for (const tone of ["a", "b", "c"]) {
      const saved = await gql(owner, UPDATE, { id: flow.id, input: { dsl: { ...flow.dsl, globals: { tone } } } });
      expect(saved.errors).toBeUndefined();
    }
    const versions = (await gql(owner, VERSIONS, { id: flow.id })).data!.flowVersions;
    expect(versions.map((v: { dsl: { globals?: { tone: string } } }) => v.dsl.globals?.tone)).toEqual(["c", "b", "a"]);
    const viewed = (await gql(owner, `query($id: ID!) { flowVersion(id: $id) { dsl } }`, { id: versions[2].id })).data!.flowVersion;
    expect(viewed.dsl.globals).toEqual({ tone: "a" });
    const restored = (await gql(owner, `mutation($id: ID!) { restoreFlowVersion(id: $id) { dsl title } }`, { id: versions[2].id })).data!.restoreFlowVersion;
    expect(restored.dsl.globals).toEqual({ tone: "a" });
    const after = (await gql(owner, VERSIONS, { id: flow.id })).data!.flowVersions;
    expect(after.map((v: { dsl: { globals?: { tone: string } } }) => v.dsl.globals?.tone)).toEqual(["a", "c", "b"]);
  });

  it("an editor's autosaves refine the newest version while it is recent; a save through the API adds one", async () => {
    const flow = await createFlow(owner, { title: `Refined by autosaves ${Date.now()}` });
    for (const tone of ["a", "b", "c"]) {
      const saved = await gql(owner, UPDATE, { id: flow.id, input: { dsl: { ...flow.dsl, globals: { tone } }, autosave: true } });
      expect(saved.errors).toBeUndefined();
    }
    const versions = (await gql(owner, VERSIONS, { id: flow.id })).data!.flowVersions;
    expect(versions.map((v: { dsl: { globals?: { tone: string } } }) => v.dsl.globals?.tone)).toEqual(["c"]);
    await gql(owner, UPDATE, { id: flow.id, input: { dsl: { ...flow.dsl, globals: { tone: "d" } } } });
    const after = (await gql(owner, VERSIONS, { id: flow.id })).data!.flowVersions;
    expect(after.map((v: { dsl: { globals?: { tone: string } } }) => v.dsl.globals?.tone)).toEqual(["d", "c"]);
  });

  it("does not show a version to another tenant", async () => {
    const flow = await createFlow(owner, { title: "Private history" });
    const [version] = (await gql(owner, VERSIONS, { id: flow.id })).data!.flowVersions;
    expect(errorOf(await gql(stranger, `query($id: ID!) { flowVersion(id: $id) { id } }`, { id: version.id }))?.extensions?.code).toBe("NOT_FOUND");
    expect(errorOf(await gql(stranger, `mutation($id: ID!) { restoreFlowVersion(id: $id) { id } }`, { id: version.id }))?.extensions?.code).toBe("NOT_FOUND");
  });
});

describe("copies and files", () => {
  it("duplicates under a free title", async () => {
    const flow = await createFlow(owner, { title: "Original", description: "the first" });
    const copy = (await gql(owner, `mutation($id: ID!) { duplicateFlow(id: $id) { ${FIELDS} } }`, { id: flow.id })).data!.duplicateFlow;
    expect(copy.id).not.toBe(flow.id);
    expect(copy.title).toBe("Original(1)");
    expect(copy.description).toBe("the first");
    expect(copy.dsl).toEqual(flow.dsl);
  });

  it("exports a file that imports again, and imports a RAGFlow file with its run state dropped", async () => {
    const flow = await createFlow(owner, { title: "Round trip", description: "there and back" });
    const file = (await gql(owner, `query($id: ID!) { exportFlow(id: $id) }`, { id: flow.id })).data!.exportFlow;
    expect(file).toMatchObject({ title: "Round trip", description: "there and back", components: flow.dsl.components, graph: flow.dsl.graph });
    const IMPORT = `mutation($file: JSON!, $title: String) { importFlow(file: $file, title: $title) { flow { ${FIELDS} } notes } }`;
    const imported = (await gql(owner, IMPORT, { file: JSON.stringify(file) })).data!.importFlow;
    expect(imported.flow.title).toBe("Round trip(1)");
    expect(imported.flow.description).toBe("there and back");
    expect(imported.flow.dsl).toEqual(flow.dsl);
    const ragflow = { ...flow.dsl, history: [["user", "hi"]], messages: [], path: [["begin"]], answer: [], reference: [], embed_id: "" };
    const bare = (await gql(owner, IMPORT, { file: ragflow, title: "From RAGFlow" })).data!.importFlow;
    expect(bare.flow.title).toBe("From RAGFlow");
    expect(Object.keys(bare.flow.dsl).sort()).toEqual(["components", "graph"]);
    expect(bare.notes).toContain("The conversation saved in the file was left out: each session keeps its own.");
    const broken = await gql(owner, `mutation($file: JSON!) { importFlow(file: $file) { flow { id } } }`, { file: "{ not json" });
    expect(errorOf(broken)?.extensions?.code).toBe("BAD_USER_INPUT");
  });

  it("validates a graph with the components' descriptions", async () => {
    const flow = await createFlow(owner, { title: "To validate" });
    const VALIDATE = `query($dsl: JSONObject!) { validateFlow(dsl: $dsl) { componentId field messageKey message } }`;
    expect((await gql(owner, VALIDATE, { dsl: flow.dsl })).data!.validateFlow).toEqual([]);
    const { begin: _begin, ...withoutBegin } = flow.dsl.components;
    const problems = (await gql(owner, VALIDATE, { dsl: { components: withoutBegin } })).data!.validateFlow;
    expect(problems).toContainEqual(expect.objectContaining({ componentId: null, messageKey: "flow.errors.beginMissing" }));
  });
});

describe("who sees what", () => {
  it("shows nothing of a tenant's flows to another tenant", async () => {
    const flow = await createFlow(owner, { title: "Owner only", permission: "team" });
    expect((await gql(stranger, LIST)).data!.flows.items.map((f: { id: string }) => f.id)).not.toContain(flow.id);
    for (const [query, variables] of [
      [GET, { id: flow.id }],
      [UPDATE, { id: flow.id, input: { title: "taken over" } }],
      [`mutation($id: ID!) { deleteFlow(id: $id) }`, { id: flow.id }],
      [`mutation($id: ID!) { duplicateFlow(id: $id) { id } }`, { id: flow.id }],
      [`query($id: ID!) { exportFlow(id: $id) }`, { id: flow.id }],
    ] as const) {
      expect(errorOf(await gql(stranger, query, variables))?.extensions?.code).toBe("NOT_FOUND");
    }
    expect((await gql(owner, GET, { id: flow.id })).data!.flow.title).toBe("Owner only");
  });

  it("shares a flow marked team with the team, who may change it but not delete it; a private one stays private", async () => {
    const shared = await createFlow(owner, { title: "Team flow", permission: "team" });
    const own = await createFlow(owner, { title: "Not shared" });
    const listed = (await gql(member, LIST)).data!.flows.items.map((f: { id: string }) => f.id);
    expect(listed).toContain(shared.id);
    expect(listed).not.toContain(own.id);
    expect(errorOf(await gql(member, GET, { id: own.id }))?.extensions?.code).toBe("NOT_FOUND");
    expect((await gql(member, UPDATE, { id: shared.id, input: { description: "edited by the team" } })).errors).toBeUndefined();
    expect(errorOf(await gql(member, `mutation($id: ID!) { deleteFlow(id: $id) }`, { id: shared.id }))?.extensions?.code).toBe("FORBIDDEN");
    expect((await gql(owner, GET, { id: shared.id })).data!.flow.description).toBe("edited by the team");
  });
});

describe("what the editor draws from", () => {
  it("describes every component with its params and message keys, and lists the templates", async () => {
    const { data } = await gql(owner, `{ flowComponents { name category label description params { key label } routing interaction } flowTemplates { id title dsl } }`);
    const begin = data!.flowComponents.find((c: { name: string }) => c.name === "Begin");
    expect(begin).toMatchObject({ category: "core", label: "flow.components.Begin.label" });
    expect(data!.flowComponents.find((c: { name: string }) => c.name === "Answer").interaction).toBe(true);
    expect(Array.isArray(data!.flowTemplates)).toBe(true);
    const ports = await gql(owner, `query($params: JSONObject!) { flowComponentPorts(name: "Switch", params: $params) { handle target } }`, {
      params: { conditions: [{ logical_operator: "and", items: [{ cpn_id: "begin", operator: "contains", value: "x" }], to: "Answer:a" }], end_cpn_id: "Answer:b" },
    });
    expect(ports.data!.flowComponentPorts).toEqual([{ handle: "Case 1", target: "Answer:a" }, { handle: "end_cpn_id", target: "Answer:b" }]);
  });

  it("lists each flow with the outline of its drawing for its thumbnail", async () => {
    const flow = await createFlow(owner, { title: "Outlined" });
    const { data } = await gql(owner, `query { flows(search: "Outlined") { items { id outline } } }`);
    const [listed] = data!.flows.items;
    expect(listed.id).toBe(flow.id);
    expect(listed.outline.nodes.map((n: { id: string }) => n.id)).toEqual(flow.dsl.graph.nodes.map((n: { id: string }) => n.id));
    expect(listed.outline.edges).toEqual(flow.dsl.graph.edges.map(({ source, target }: { source: string; target: string }) => ({ source, target })));
  });
});
