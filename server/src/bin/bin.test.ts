import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SignedIn } from "../policies/principal";
import { copyDatabaseTemplate } from "../testing/database-template";
import { parsedKnowledgeBase } from "../testing/knowledge-bases";
import { signUpAndIn, startTestServer, type TestServer } from "../testing/app";
import { apiUser } from "../testing/rest-support";
import { BinService } from "./bin.service";
import { flowBinKind } from "../flows/bin-kinds";
import { WorkKind } from "./work-kind";

/**
 * The recycle bin through the services, as the resolvers call them: each kind goes in and comes back exactly, names
 * taken meanwhile, parents still in the bin, a restart, the purge after the period (with an injected clock), emptying,
 * and the REST API's deletes that still destroy. One server over a data directory of the test's own, restarted once.
 */

let server: TestServer;
let dataDir: string;
let owner: SignedIn;
let ownerToken: string;
let stranger: SignedIn;
/** A parsed knowledge base of the owner's, for the assistant to answer from. */
let parsedKnowledgeBaseId: string;

const TEXT = { "rivers.txt": "The Danube flows through Vienna and Budapest before it reaches the Black Sea." };

async function signIn(): Promise<SignedIn> {
  return principalOf((await signUpAndIn(server)).token);
}

async function principalOf(token: string): Promise<SignedIn> {
  return (await server.services.principalFor(`Bearer ${token}`)) as SignedIn;
}

async function entryOf(kind: WorkKind, itemId: string) {
  const { items } = await server.services.bin.list(owner, { kind, pageSize: 100 });
  const found = items.find((i) => i.entry.itemId === itemId);
  if (!found) throw new Error(`no ${kind} ${itemId} in the bin`);
  return found.entry;
}

async function hitsFor(knowledgeBaseId: string): Promise<number> {
  return (await server.services.retrieval.retrieve(owner, { question: "Danube Vienna", knowledgeBaseIds: [knowledgeBaseId], similarityThreshold: 0 })).hits.length;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cairn-bin-"));
  copyDatabaseTemplate(dataDir);
  server = await startTestServer({ DATA_DIR: dataDir });
  ownerToken = (await signUpAndIn(server)).token;
  owner = await principalOf(ownerToken);
  stranger = await signIn();
});

afterAll(async () => {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("knowledge bases and documents", () => {
  it("a binned document is neither listed nor retrieved, and comes back with its chunks and vectors", async () => {
    const { knowledgeBase, documentIds } = await parsedKnowledgeBase(server, owner, TEXT);
    parsedKnowledgeBaseId = knowledgeBase.id;
    const before = await hitsFor(knowledgeBase.id);
    expect(before).toBeGreaterThan(0);
    await server.services.documents.delete(owner, documentIds);
    expect((await server.services.documents.list(owner, knowledgeBase.id)).total).toBe(0);
    expect(await hitsFor(knowledgeBase.id)).toBe(0);
    const counted = await server.services.knowledgeBases.accessible(owner, knowledgeBase.id);
    expect([counted.documentCount, counted.chunkCount]).toEqual([0, 0]);
    const entry = await entryOf(WorkKind.document, documentIds[0]);
    expect(entry.detail.parentName).toBe(knowledgeBase.name);

    const [restored] = await server.services.bin.restore(owner, [entry.id]);
    expect(restored).toMatchObject({ kind: WorkKind.document, itemId: documentIds[0], name: "rivers.txt", previousName: null });
    expect(await hitsFor(knowledgeBase.id)).toBe(before);
    const back = await server.services.knowledgeBases.accessible(owner, knowledgeBase.id);
    expect([back.documentCount, back.chunkCount]).toEqual([knowledgeBase.documentCount, knowledgeBase.chunkCount]);
  });

  it("a binned knowledge base frees its name; restored, it comes back renamed with its documents, and its documents wait for it", async () => {
    const { knowledgeBase, documentIds } = await parsedKnowledgeBase(server, owner, TEXT, { name: "Rivers" });
    await server.services.documents.delete(owner, documentIds);
    const documentEntry = await entryOf(WorkKind.document, documentIds[0]);
    await server.services.knowledgeBases.delete(owner, [knowledgeBase.id]);
    await expect(server.services.knowledgeBases.accessible(owner, knowledgeBase.id)).rejects.toMatchObject({ kind: "NOT_FOUND" });
    expect((await server.services.knowledgeBases.list(owner, { search: "Rivers" })).total).toBe(0);
    await expect(server.services.bin.restore(owner, [documentEntry.id])).rejects.toMatchObject({ kind: "CONFLICT", messageKey: "errors.bin.knowledgeBaseInBin" });

    await server.services.knowledgeBases.create(owner, { name: "Rivers" });
    const kbEntry = await entryOf(WorkKind.knowledgeBase, knowledgeBase.id);
    const restored = await server.services.bin.restore(owner, [documentEntry.id, kbEntry.id]);
    expect(restored.map((r) => [r.kind, r.name, r.previousName])).toEqual([
      [WorkKind.knowledgeBase, "Rivers (1)", "Rivers"],
      [WorkKind.document, "rivers.txt", null],
    ]);
    expect(await hitsFor(knowledgeBase.id)).toBeGreaterThan(0);
  });

  it("the REST API's delete destroys at once, and answers a binned knowledge base as a missing one", async () => {
    const user = await apiUser(server);
    const principal = (await server.services.principalFor(`Bearer ${user.key}`)) as SignedIn;
    const kept = await server.services.knowledgeBases.create(principal, { name: "kept" });
    const binned = await server.services.knowledgeBases.create(principal, { name: "binned" });
    await server.services.knowledgeBases.delete(principal, [binned.id]);
    const destroyed = await server.rest("DELETE", "/api/v1/datasets", { token: user.key, body: { ids: [kept.id] } });
    expect(destroyed.body.code).toBe(0);
    expect((await server.services.bin.list(principal)).items.map((i) => i.entry.itemId)).toEqual([binned.id]);
    const missing = await server.rest("DELETE", "/api/v1/datasets", { token: user.key, body: { ids: [binned.id] } });
    expect(missing.body.code).not.toBe(0);
    expect((await server.rest("GET", "/api/v1/datasets", { token: user.key })).body.data).toEqual([]);
  });
});

describe("assistants, conversations and flows", () => {
  it("a conversation comes back only to a live assistant; the assistant comes back under a free name", async () => {
    const assistant = await server.services.assistants.create(owner, { name: "Helper", knowledgeBaseIds: [parsedKnowledgeBaseId] });
    const conversation = await server.services.conversations.create({ principal: owner }, assistant.id, { name: "About rivers" });
    await server.services.conversations.delete({ principal: owner }, [conversation.id]);
    expect(await server.services.conversations.list({ principal: owner }, assistant.id)).toEqual([]);
    await server.services.assistants.delete(owner, [assistant.id]);
    await server.services.assistants.create(owner, { name: "helper", knowledgeBaseIds: [parsedKnowledgeBaseId] });
    const conversationEntry = await entryOf(WorkKind.conversation, conversation.id);
    expect(conversationEntry.detail.parentName).toBe("Helper");
    await expect(server.services.bin.restore(owner, [conversationEntry.id])).rejects.toMatchObject({ messageKey: "errors.bin.assistantInBin" });
    const [back] = await server.services.bin.restore(owner, [(await entryOf(WorkKind.assistant, assistant.id)).id]);
    expect([back.name, back.previousName]).toEqual(["Helper (1)", "Helper"]);
    await server.services.bin.restore(owner, [conversationEntry.id]);
    expect((await server.services.conversations.list({ principal: owner }, assistant.id)).map((c) => c.id)).toEqual([conversation.id]);
  });

  it("a flow comes back with its versions", async () => {
    const flow = await server.services.flows.create(owner, { title: "Router" });
    await server.services.flows.update(owner, flow.id, { title: "Router two" });
    const versions = (await server.services.flows.listVersions(owner, flow.id)).map((v) => v.id);
    expect(versions.length).toBeGreaterThan(0);
    await server.services.flows.delete(owner, flow.id);
    expect((await server.services.flows.list(owner)).items.map((f) => f.id)).not.toContain(flow.id);
    await server.services.bin.restore(owner, [(await entryOf(WorkKind.flow, flow.id)).id]);
    expect((await server.services.flows.listVersions(owner, flow.id)).map((v) => v.id)).toEqual(versions);
  });
});

describe("files", () => {
  it("a folder goes with everything below it and the documents its files were linked as, and comes back whole", async () => {
    const { files, knowledgeBases, documents } = server.services;
    const folder = await files.createFolder(owner, null, "Reports");
    const [file] = await files.upload(owner, folder.id, [{ path: "q1.txt", data: Buffer.from("first quarter") }]);
    const kb = await knowledgeBases.create(owner, { name: `linked-${Date.now()}` });
    await files.link(owner, [file.id], [kb.id]);
    expect((await documents.list(owner, kb.id)).total).toBe(1);

    const impact = await files.delete(owner, [folder.id]);
    expect(impact.files).toBe(1);
    expect((await files.list(owner, {})).items.map((i) => i.name)).not.toContain("Reports");
    expect((await documents.list(owner, kb.id)).total).toBe(0);
    const entry = await entryOf(WorkKind.file, folder.id);
    expect(entry.detail.counts).toEqual({ file: 1, document: 1 });

    await files.createFolder(owner, null, "Reports");
    const [back] = await server.services.bin.restore(owner, [entry.id]);
    expect(back.name).toBe("Reports (1)");
    expect((await files.list(owner, { parentId: folder.id })).items.map((i) => i.name)).toEqual(["q1.txt"]);
    expect((await documents.list(owner, kb.id)).total).toBe(1);
  });

  it("a file whose folder is in the bin waits for the folder", async () => {
    const { files } = server.services;
    const folder = await files.createFolder(owner, null, `Drafts-${Date.now()}`);
    const [file] = await files.upload(owner, folder.id, [{ path: "note.txt", data: Buffer.from("note") }]);
    await files.delete(owner, [file.id]);
    await files.delete(owner, [folder.id]);
    await expect(server.services.bin.restore(owner, [(await entryOf(WorkKind.file, file.id)).id])).rejects.toMatchObject({ messageKey: "errors.bin.folderInBin" });
  });
});

describe("over GraphQL, and with the bin off", () => {
  it("the web app's delete puts a knowledge base in the bin, which lists it with its days left, and restoring brings it back", async () => {
    const created = await server.graphql<{ createKnowledgeBase: { id: string } }>(`mutation { createKnowledgeBase(input: { name: "Over GraphQL" }) { id } }`, {}, ownerToken);
    const id = created.data!.createKnowledgeBase.id;
    expect((await server.graphql(`mutation($id: ID!) { deleteKnowledgeBase(id: $id) }`, { id }, ownerToken)).data).toEqual({ deleteKnowledgeBase: true });
    const listed = await server.graphql<{ recycleBin: { total: number; retentionDays: number; items: { id: string; itemId: string; kind: string; daysLeft: number; binnedBy: string }[] } }>(
      `query { recycleBin(kind: knowledgeBase, search: "over graph") { total retentionDays items { id itemId kind daysLeft binnedBy } } }`,
      {},
      ownerToken,
    );
    const days = server.services.platform.config.recycleBinDays;
    expect(listed.data!.recycleBin).toMatchObject({ total: 1, retentionDays: days, items: [{ itemId: id, kind: "knowledgeBase", daysLeft: days - 1 }] });
    const restored = await server.graphql<{ restoreFromBin: { itemId: string; name: string }[] }>(`mutation($ids: [ID!]!) { restoreFromBin(ids: $ids) { itemId name previousName } }`, { ids: [listed.data!.recycleBin.items[0].id] }, ownerToken);
    expect(restored.data!.restoreFromBin).toEqual([{ itemId: id, name: "Over GraphQL", previousName: null }]);
    expect((await server.graphql(`mutation($ids: [ID!]!) { purgeFromBin(ids: $ids) }`, { ids: [listed.data!.recycleBin.items[0].id] }, ownerToken)).errors?.[0].extensions.code).toBe("NOT_FOUND");
  });

  it("with RECYCLE_BIN_DAYS=0 a delete destroys at once and leaves nothing in the bin", async () => {
    const { platform } = server.services;
    const off = new BinService({ ...platform, config: { ...platform.config, recycleBinDays: 0 } });
    off.register(WorkKind.flow, flowBinKind);
    const flow = await server.services.flows.create(owner, { title: `gone-${Date.now()}` });
    const [entry] = await off.put(owner, WorkKind.flow, [{ id: flow.id, tenantId: flow.tenantId, name: flow.title }]);
    expect(await platform.db.query(`SELECT id FROM flow WHERE id = $1`, [flow.id])).toEqual([]);
    expect(await platform.db.query(`SELECT id FROM bin_entry WHERE id = $1`, [entry.id])).toEqual([]);
  });
});

describe("who sees the bin, emptying it, the purge and a restart", () => {
  it("another user sees nothing of it and can restore nothing", async () => {
    const flow = await server.services.flows.create(owner, { title: `private-${Date.now()}` });
    await server.services.flows.delete(owner, flow.id);
    const entry = await entryOf(WorkKind.flow, flow.id);
    expect((await server.services.bin.list(stranger)).total).toBe(0);
    await expect(server.services.bin.restore(stranger, [entry.id])).rejects.toMatchObject({ kind: "NOT_FOUND" });
    await expect(server.services.bin.purge(stranger, [entry.id])).rejects.toMatchObject({ kind: "NOT_FOUND" });
  });

  it("an entry binned before a restart is restored after it, and follows the retention the restarted server is given", async () => {
    const flow = await server.services.flows.create(owner, { title: `restart-${Date.now()}` });
    await server.services.flows.delete(owner, flow.id);
    await server.close();
    server = await startTestServer({ DATA_DIR: dataDir, RECYCLE_BIN_DAYS: "7" });
    owner = await principalOf(ownerToken);
    const entry = await entryOf(WorkKind.flow, flow.id);
    expect(entry.purgeAt.getTime() - entry.binnedAt.getTime()).toBe(7 * 24 * 60 * 60 * 1000);
    await server.services.bin.restore(owner, [entry.id]);
    expect((await server.services.flows.get(owner, flow.id)).title).toBe(flow.title);
  });

  it("the purge destroys what is past the period and leaves the rest; emptying the bin destroys everything in it", async () => {
    const days = server.services.platform.config.recycleBinDays;
    const old = await server.services.flows.create(owner, { title: `old-${Date.now()}` });
    const recent = await server.services.flows.create(owner, { title: `recent-${Date.now()}` });
    // Binned a day more than the period ago, by a bin whose clock says so.
    const past = new BinService(server.services.platform, () => new Date(Date.now() - (days + 1) * 24 * 60 * 60 * 1000));
    past.register(WorkKind.flow, flowBinKind);
    await past.put(owner, WorkKind.flow, [{ id: old.id, tenantId: old.tenantId, name: old.title }]);
    await server.services.flows.delete(owner, recent.id);

    expect(await server.services.bin.purgeExpired()).toBe(1);
    await expect(entryOf(WorkKind.flow, old.id)).rejects.toThrow();
    expect(await server.services.platform.db.query(`SELECT id FROM flow WHERE id = $1`, [old.id])).toEqual([]);
    expect((await entryOf(WorkKind.flow, recent.id)).itemId).toBe(recent.id);
    expect(await server.services.bin.purgeExpired()).toBe(0);

    expect(await server.services.bin.empty(owner)).toBeGreaterThan(0);
    expect((await server.services.bin.list(owner)).total).toBe(0);
    expect(await server.services.platform.db.query(`SELECT id FROM flow WHERE id = $1`, [recent.id])).toEqual([]);
  });
});
