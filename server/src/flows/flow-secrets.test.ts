import http from "node:http";
import type { AddressInfo } from "node:net";
import { TenantMember } from "../auth/tenant-member.entity";
import { startTestServer, type TestServer } from "../testing/app";
import { apiUser, type ApiUser } from "../testing/rest-support";
import { COMPONENTS } from "./components";
import { SECRET_MASK, SECRET_NEEDED, secretSpecs } from "./flow-secrets";
import { sketchFlow } from "./testing/run-flow";

/**
 * A flow's secrets (its components' params of type "secret") are stored sealed and never leave the server: every read
 * (GraphQL, versions, the service API) shows them masked, an export leaves them out (an import then asks for them),
 * the mask saved back keeps them, and only a run opens them, for the component that sends them. A team member who
 * reads a shared flow sees the mask; another tenant sees nothing; a copy into another tenant needs them typed again.
 */

let server: TestServer;
let owner: ApiUser;
let member: ApiUser;
let stranger: ApiUser;
/** A local HTTP service the Invoke component calls: it records the authorization it was sent. */
let service: http.Server;
let serviceUrl: string;
const received: (string | undefined)[] = [];

const DEEPL_KEY = "deepl-key-0123456789";
const DB_PASSWORD = "db-password-0123456789";
const BEARER = "Bearer invoke-token-0123456789";
const PLAINTEXTS = [DEEPL_KEY, DB_PASSWORD, "invoke-token-0123456789"];

const gql = <T = Record<string, any>>(user: ApiUser, query: string, variables: Record<string, unknown> = {}) => server.graphql<T>(query, variables, user.token); // eslint-disable-line @typescript-eslint/no-explicit-any
const CREATE = `mutation($input: CreateFlowInput!) { createFlow(input: $input) { id dsl updatedAt } }`;
const UPDATE = `mutation($id: ID!, $input: UpdateFlowInput!) { updateFlow(id: $id, input: $input) { id dsl } }`;
const GET = `query($id: ID!) { flow(id: $id) { id dsl } }`;
const VALIDATE = `query($dsl: JSONObject!) { validateFlow(dsl: $dsl) { componentId field messageKey message } }`;

/** Begin → Invoke (headers with a bearer token), with a DeepL and an ExeSQL node beside them holding their own secrets. */
function secretFlow(headers = JSON.stringify({ authorization: BEARER })) {
  return sketchFlow({
    begin: { name: "Begin", down: ["call"] },
    call: { name: "Invoke", params: { url: `${serviceUrl}/hook`, headers } },
    translate: { name: "DeepL", params: { auth_key: DEEPL_KEY } },
    sql: { name: "ExeSQL", params: { host: "db.example.com", port: 5432, db_type: "postgresql", database: "shop", username: "reader", password: DB_PASSWORD } },
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const paramsOf = (dsl: any, id: string) => dsl.components[id].obj.params;

async function createFlow(user: ApiUser, input: Record<string, unknown>) {
  const response = await gql(user, CREATE, { input });
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  return response.data.createFlow as { id: string; dsl: any; updatedAt: string }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Rows of the flows' tables that hold a secret's text anywhere, by table (none, always). */
async function rowsWithPlaintext(): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const table of ["flow", "flow_version", "flow_session", "flow_run", "flow_run_step", "flow_run_event"]) {
    const conditions = PLAINTEXTS.map((_, i) => `t::text LIKE $${i + 1}`).join(" OR ");
    const [row] = await server.services.platform.db.query(`SELECT count(*)::int AS n FROM ${table} t WHERE ${conditions}`, PLAINTEXTS.map((text) => `%${text}%`));
    if (row.n > 0) found[table] = row.n;
  }
  return found;
}

/** The stored DSL of a flow, as the database has it. */
async function storedDsl(flowId: string) {
  const [row] = await server.services.platform.db.query(`SELECT dsl FROM flow WHERE id = $1`, [flowId]);
  return row.dsl;
}

beforeAll(async () => {
  service = http.createServer((request, response) => {
    received.push(request.headers.authorization);
    response.end("the hook was called");
  });
  await new Promise<void>((resolve) => service.listen(0, "127.0.0.1", resolve));
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  server = await startTestServer({ FLOW_PRIVATE_ADDRESSES: "true" });
  [owner, member, stranger] = [await apiUser(server), await apiUser(server), await apiUser(server)];
  await server.services.platform.db.getRepository(TenantMember).insert({ tenantId: owner.tenantId, userId: member.tenantId, role: "normal" });
});
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => service?.close(resolve));
});

test("every key, token, password and HTTP header a component sends is a secret param, declared once in its ParamSpec", () => {
  const secrets = COMPONENTS.flatMap((component) => secretSpecs(component).map((spec) => `${component.name}.${spec.key}`));
  expect(secrets.sort()).toEqual(
    ["BaiduFanyi.secret_key", "Bing.api_key", "DeepL.auth_key", "ExeSQL.password", "GitHub.token", "Google.api_key", "GoogleScholar.api_key", "Invoke.headers", "Jin10.secret_key", "QWeather.web_apikey", "TuShare.token"].sort(),
  );
});

describe("storing and reading", () => {
  it("stores a typed secret sealed and shows it masked on every read: the flow, its versions, the service API", async () => {
    const flow = await createFlow(owner, { title: "Sealed on create", dsl: secretFlow() });
    expect(paramsOf(flow.dsl, "translate").auth_key).toBe(SECRET_MASK);
    expect(paramsOf(flow.dsl, "sql").password).toBe(SECRET_MASK);
    expect(paramsOf(flow.dsl, "call").headers).toBe(SECRET_MASK);
    // What is not secret reads as it was written.
    expect(paramsOf(flow.dsl, "sql")).toMatchObject({ host: "db.example.com", username: "reader" });

    const stored = await storedDsl(flow.id);
    expect(paramsOf(stored, "translate").auth_key).toMatch(/^sealed:v1\./);
    expect(server.services.flows.secrets.open(paramsOf(stored, "translate").auth_key)).toBe(DEEPL_KEY);

    const versions = (await gql(owner, `query($id: ID!) { flowVersions(flowId: $id) { id dsl } }`, { id: flow.id })).data!.flowVersions;
    expect(paramsOf(versions[0].dsl, "translate").auth_key).toBe(SECRET_MASK);
    const version = (await gql(owner, `query($id: ID!) { flowVersion(id: $id) { dsl } }`, { id: versions[0].id })).data!.flowVersion;
    expect(paramsOf(version.dsl, "sql").password).toBe(SECRET_MASK);

    const agents = await server.rest("GET", `/api/v1/agents?id=${flow.id}`, { token: owner.key });
    const listed = (agents.body as { data: { dsl: unknown }[] }).data;
    expect(paramsOf(listed[0].dsl, "call").headers).toBe(SECRET_MASK);
    expect(JSON.stringify(agents.body)).not.toContain(DEEPL_KEY);
    expect(await rowsWithPlaintext()).toEqual({});
  });

  it("keeps the stored secret when the mask comes back unchanged; replaces it when typed anew; clears it when emptied", async () => {
    const flow = await createFlow(owner, { title: "Mask round trip", dsl: secretFlow() });
    const sealedBefore = paramsOf(await storedDsl(flow.id), "translate").auth_key;
    // The editor saves what it read, other params changed.
    const read = (await gql(owner, GET, { id: flow.id })).data!.flow.dsl;
    paramsOf(read, "translate").target_lang = "DE";
    await gql(owner, UPDATE, { id: flow.id, input: { dsl: read } });
    const kept = await storedDsl(flow.id);
    expect(paramsOf(kept, "translate")).toMatchObject({ auth_key: sealedBefore, target_lang: "DE" });

    paramsOf(read, "translate").auth_key = "a-new-deepl-key";
    paramsOf(read, "sql").password = "";
    await gql(owner, UPDATE, { id: flow.id, input: { dsl: read } });
    const replaced = await storedDsl(flow.id);
    expect(server.services.flows.secrets.open(paramsOf(replaced, "translate").auth_key)).toBe("a-new-deepl-key");
    expect(paramsOf(replaced, "sql").password).toBe("");
    expect(paramsOf((await gql(owner, GET, { id: flow.id })).data!.flow.dsl, "sql").password).toBe("");
  });

  it("needs the secret typed again when the component now sends it elsewhere (another database host, another URL)", async () => {
    const flow = await createFlow(owner, { title: "Moved destination", dsl: secretFlow() });
    const read = (await gql(owner, GET, { id: flow.id })).data!.flow.dsl;
    paramsOf(read, "sql").host = "attacker.example.com";
    paramsOf(read, "call").url = "https://attacker.example.com/collect";
    const saved = (await gql(owner, UPDATE, { id: flow.id, input: { dsl: read } })).data!.updateFlow;
    expect(paramsOf(saved.dsl, "sql").password).toBe(SECRET_NEEDED);
    expect(paramsOf(saved.dsl, "call").headers).toBe(SECRET_NEEDED);
    // The DeepL key goes to DeepL only: it stays.
    expect(paramsOf(saved.dsl, "translate").auth_key).toBe(SECRET_MASK);
    const problems = (await gql(owner, VALIDATE, { dsl: saved.dsl })).data!.validateFlow;
    expect(problems.filter((p: { messageKey: string }) => p.messageKey === "flow.errors.secretNeeded").map((p: { componentId: string; field: string }) => `${p.componentId}.${p.field}`).sort()).toEqual(["call.headers", "sql.password"]);
  });

  it("restores a version with its secrets, and seals on save a secret stored before sealing existed", async () => {
    const flow = await createFlow(owner, { title: "Restored secrets", dsl: secretFlow() });
    const versions = (await gql(owner, `query($id: ID!) { flowVersions(flowId: $id) { id } }`, { id: flow.id })).data!.flowVersions;
    const read = (await gql(owner, GET, { id: flow.id })).data!.flow.dsl;
    paramsOf(read, "translate").auth_key = "";
    await gql(owner, UPDATE, { id: flow.id, input: { dsl: read } });
    await gql(owner, `mutation($id: ID!) { restoreFlowVersion(id: $id) { id } }`, { id: versions.at(-1).id });
    expect(server.services.flows.secrets.open(paramsOf(await storedDsl(flow.id), "translate").auth_key)).toBe(DEEPL_KEY);

    // A flow saved before secrets were sealed holds its key in plain text: the first save seals it.
    const legacy = await storedDsl(flow.id);
    paramsOf(legacy, "translate").auth_key = "legacy-plain-key";
    await server.services.platform.db.query(`UPDATE flow SET dsl = $2 WHERE id = $1`, [flow.id, JSON.stringify(legacy)]);
    const masked = (await gql(owner, GET, { id: flow.id })).data!.flow.dsl;
    expect(paramsOf(masked, "translate").auth_key).toBe(SECRET_MASK);
    await gql(owner, UPDATE, { id: flow.id, input: { dsl: masked } });
    const sealed = paramsOf(await storedDsl(flow.id), "translate").auth_key;
    expect(sealed).toMatch(/^sealed:/);
    expect(server.services.flows.secrets.open(sealed)).toBe("legacy-plain-key");
    // Sealed under another server key, it is not guessed at: the run says to type it again.
    expect(() => server.services.flows.secrets.open(`${sealed.slice(0, -4)}AAAA`)).toThrow(expect.objectContaining({ messageKey: "flow.errors.secretUnreadable" }));
  });
});

describe("files and copies", () => {
  it("exports no secret; the imported flow asks for each until it is typed", async () => {
    const flow = await createFlow(owner, { title: "Exported without secrets", dsl: secretFlow() });
    const file = (await gql(owner, `query($id: ID!) { exportFlow(id: $id) }`, { id: flow.id })).data!.exportFlow;
    for (const text of [...PLAINTEXTS, "sealed:"]) expect(JSON.stringify(file)).not.toContain(text);
    expect(paramsOf(file, "translate").auth_key).toBe(SECRET_NEEDED);

    const imported = (await gql(owner, `mutation($file: JSON!) { importFlow(file: $file) { flow { id dsl } } }`, { file })).data!.importFlow.flow;
    const problems = (await gql(owner, VALIDATE, { dsl: imported.dsl })).data!.validateFlow;
    const needed = problems.filter((p: { messageKey: string }) => p.messageKey === "flow.errors.secretNeeded");
    expect(needed.map((p: { componentId: string; field: string }) => `${p.componentId}.${p.field}`).sort()).toEqual(["call.headers", "sql.password", "translate.auth_key"]);
    expect(needed.find((p: { componentId: string }) => p.componentId === "translate").message).toContain("translate");

    const typed = structuredClone(imported.dsl);
    paramsOf(typed, "translate").auth_key = "typed-after-import";
    paramsOf(typed, "sql").password = "typed-after-import";
    paramsOf(typed, "call").headers = JSON.stringify({ authorization: "Bearer typed" });
    const saved = (await gql(owner, UPDATE, { id: imported.id, input: { dsl: typed } })).data!.updateFlow;
    expect((await gql(owner, VALIDATE, { dsl: saved.dsl })).data!.validateFlow).toEqual([]);
  });

  it("shows a team member the shared flow masked; their copy in their own tenant needs the secrets again; another tenant sees nothing", async () => {
    const flow = await createFlow(owner, { title: "Shared with the team", dsl: secretFlow(), permission: "team" });
    const seen = await gql(member, GET, { id: flow.id });
    expect(paramsOf(seen.data!.flow.dsl, "sql").password).toBe(SECRET_MASK);
    expect(JSON.stringify(seen)).not.toContain(DB_PASSWORD);

    // A copy in the owner's tenant keeps them; the member's, in the member's own tenant, does not.
    const own = (await gql(owner, `mutation($id: ID!) { duplicateFlow(id: $id) { id } }`, { id: flow.id })).data!.duplicateFlow;
    expect(server.services.flows.secrets.open(paramsOf(await storedDsl(own.id), "sql").password)).toBe(DB_PASSWORD);
    const copy = (await gql(member, `mutation($id: ID!) { duplicateFlow(id: $id) { id dsl } }`, { id: flow.id })).data!.duplicateFlow;
    expect(paramsOf(copy.dsl, "sql").password).toBe(SECRET_NEEDED);
    expect(paramsOf(await storedDsl(copy.id), "sql").password).toBe(SECRET_NEEDED);

    expect((await gql(stranger, GET, { id: flow.id })).errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    // A sealed value written by another tenant's client is only text to this server: it opens to itself, never to the secret.
    const sealed = paramsOf(await storedDsl(flow.id), "translate").auth_key;
    const theirs = await createFlow(stranger, { title: "Pasted sealed text", dsl: sketchFlow({ begin: { name: "Begin" }, translate: { name: "DeepL", params: { auth_key: sealed } } }) });
    expect(server.services.flows.secrets.open(paramsOf(await storedDsl(theirs.id), "translate").auth_key)).toBe(sealed);
  });
});

describe("runs", () => {
  it("opens a secret for the component that sends it, and no run record or event holds it", async () => {
    const flow = await createFlow(owner, { title: "Run with a token", dsl: secretFlow() });
    // DeepL and ExeSQL, beside the path, do not run: the turn runs Begin, then Invoke, whose answer ends it.
    const started = await gql(owner, `mutation($flowId: ID!) { startFlowRun(flowId: $flowId, input: {}) { run { id } } }`, { flowId: flow.id });
    if (!started.data) throw new Error(JSON.stringify(started.errors));
    const runId = started.data.startFlowRun.run.id;
    const RUN = `query($id: ID!) { flowRun(id: $id) { status answer error } }`;
    let run = (await gql(owner, RUN, { id: runId })).data!.flowRun;
    while (run.status === "queued" || run.status === "running") {
      await new Promise((resolve) => setImmediate(resolve));
      run = (await gql(owner, RUN, { id: runId })).data!.flowRun;
    }
    expect(run).toMatchObject({ status: "finished", answer: "the hook was called" });
    expect(received.at(-1)).toBe(BEARER);
    expect(await rowsWithPlaintext()).toEqual({});
    // The service API lists the run's session with the flow it ran, masked.
    const sessions = await server.rest("GET", `/api/v1/agents/${flow.id}/sessions`, { token: owner.key });
    const listed = (sessions.body as { data: { dsl: unknown }[] }).data;
    expect(listed).toHaveLength(1);
    expect(paramsOf(listed[0].dsl, "call").headers).toBe(SECRET_MASK);
  });
});
