import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { TenantMember } from "../auth/tenant-member.entity";
import { Document } from "../knowledge/document.entity";
import { MAX_FILE_BYTES, MAX_FILES_PER_UPLOAD } from "../knowledge/staged-upload";
import type { SignedIn } from "../policies/principal";
import { startTestServer, type TestServer } from "../testing/app";
import { refusal } from "../testing/refusal";
import { apiUser, createDataset, uploadDocuments, type ApiUser } from "../testing/rest-support";
import { FIELD_MAX_ROWS } from "../graphql/field-costs";
import { MAX_PAGE_SIZE, type FileService } from "./file.service";
import { FileSort } from "./file.types";

/**
 * The file manager's rules, through FileService as the resolvers and routes call it: the tree, uploads, names, moves,
 * deletion, links to knowledge bases that share bytes, the read-only .knowledgebase/ views, and who may do what.
 */

let server: TestServer;
let files: FileService;
let owner: ApiUser;
let member: ApiUser;
let stranger: ApiUser;
let asOwner: SignedIn;
let asMember: SignedIn;
let asStranger: SignedIn;

const principal = async (user: ApiUser) => (await server.services.principalFor(`Bearer ${user.token}`)) as SignedIn;

async function read(stream: Readable): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part));
  return Buffer.concat(parts).toString();
}

/** The files a tenant has in the object store (the disk store keeps them under DATA_DIR/objects). */
function storedFiles(tenantId: string): string[] {
  const dir = path.join(server.dataDir, "objects", tenantId, "files");
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => !name.endsWith(".partial")) : [];
}

const names = (entries: { name: string }[]) => entries.map((e) => e.name);

beforeAll(async () => {
  server = await startTestServer();
  files = server.services.files;
  [owner, member, stranger] = [await apiUser(server), await apiUser(server), await apiUser(server)];
  await server.services.platform.db.getRepository(TenantMember).insert({ tenantId: owner.tenantId, userId: member.tenantId, role: "normal" });
  [asOwner, asMember, asStranger] = [await principal(owner), await principal(member), await principal(stranger)];
});
afterAll(() => server.close());

describe("the tree", () => {
  it("gives each tenant one root folder, made on first use", async () => {
    const [first, again] = await Promise.all([files.root(asStranger), files.root(asStranger)]);
    expect(first.id).toBe(again.id);
    expect(first.name).toBe("/");
    expect((await files.root(asOwner)).id).not.toBe(first.id);
  });

  it("makes folders whose names are required, have no slash and are unique among their siblings whatever their case", async () => {
    const folder = await files.createFolder(asOwner, null, "  Reports  ");
    expect(folder).toMatchObject({ name: "Reports", kind: "folder", readOnly: false, can: { read: true, use: true, manage: true, delete: true } });
    expect(await refusal(files.createFolder(asOwner, null, "reports"))).toEqual({ kind: "CONFLICT", messageKey: "errors.file.folderNameTaken" });
    expect(await refusal(files.createFolder(asOwner, null, "  "))).toEqual({ kind: "BAD_REQUEST", messageKey: "errors.file.nameRequired" });
    expect(await refusal(files.createFolder(asOwner, null, "a/b"))).toEqual({ kind: "BAD_REQUEST", messageKey: "errors.file.nameSlash" });
    expect(await refusal(files.createFolder(asOwner, null, ".knowledgebase"))).toEqual({ kind: "BAD_REQUEST", messageKey: "errors.file.nameReserved" });
    const inside = await files.createFolder(asOwner, folder.id, "reports");
    expect(inside.parentId).toBe(folder.id);
  });

  it("uploads a whole folder: relative paths make folders (or reuse them), a taken name becomes name(1).ext", async () => {
    const base = await files.createFolder(asOwner, null, "upload-here");
    const made = await files.upload(asOwner, base.id, [
      { path: "notes.txt", data: Buffer.from("one") },
      { path: "notes.txt", data: Buffer.from("two") },
      { path: "project/docs/spec.md", data: Buffer.from("# spec") },
      { path: "project/readme.md", data: Buffer.from("hi") },
    ]);
    expect(names(made)).toEqual(["notes.txt", "notes(1).txt", "spec.md", "readme.md"]);
    const root = await files.list(asOwner, { parentId: base.id, sort: FileSort.name, desc: false });
    expect(names(root.items)).toEqual(["project", "notes(1).txt", "notes.txt"]);
    expect(root.items[0]).toMatchObject({ kind: "folder", size: 8, hasChildFolders: true });
    const project = root.items[0].id;
    const inside = await files.list(asOwner, { parentId: project, sort: FileSort.name, desc: false });
    expect(names(inside.items)).toEqual(["docs", "readme.md"]);
    expect(names(inside.path)).toEqual(["/", "upload-here", "project"]);
    const { body } = await files.download(asOwner, made[1].id);
    expect(await read(body)).toBe("two");
  });

  it("refuses a file over 10 MB and more than 128 files at once, and keeps nothing of the upload", async () => {
    const base = await files.createFolder(asOwner, null, "refused");
    const before = storedFiles(owner.tenantId).length;
    const tooBig = [{ path: "deep/ok.txt", data: Buffer.from("fine") }, { path: "big.bin", data: Buffer.alloc(MAX_FILE_BYTES + 1) }];
    expect(await refusal(files.upload(asOwner, base.id, tooBig))).toEqual({ kind: "PAYLOAD_TOO_LARGE", messageKey: "httpStatus.413" });
    const tooMany = Array.from({ length: MAX_FILES_PER_UPLOAD + 1 }, (_, i) => ({ path: `f${i}.txt`, data: Buffer.from("x") }));
    expect(await refusal(files.upload(asOwner, base.id, tooMany))).toEqual({ kind: "PAYLOAD_TOO_LARGE", messageKey: "httpStatus.413" });
    expect((await files.list(asOwner, { parentId: base.id })).total).toBe(0);
    expect(storedFiles(owner.tenantId).length).toBe(before);
  });

  it("lists a folder with search, sort, order and pages, folders first", async () => {
    const base = await files.createFolder(asOwner, null, "listing");
    await files.upload(asOwner, base.id, [
      { path: "b-small.txt", data: Buffer.from("1") },
      { path: "a-large.txt", data: Buffer.from("1234567") },
      { path: "c-medium.txt", data: Buffer.from("1234") },
    ]);
    await files.createFolder(asOwner, base.id, "z-folder");
    expect(names((await files.list(asOwner, { parentId: base.id, sort: FileSort.size, desc: true })).items)).toEqual(["z-folder", "a-large.txt", "c-medium.txt", "b-small.txt"]);
    expect(names((await files.list(asOwner, { parentId: base.id, sort: FileSort.name, desc: false, page: 2, pageSize: 3 })).items)).toEqual(["c-medium.txt"]);
    const searched = await files.list(asOwner, { parentId: base.id, search: "MEDIUM" });
    expect({ total: searched.total, names: names(searched.items) }).toEqual({ total: 1, names: ["c-medium.txt"] });
  });

  it("never lists more than a page of MAX_PAGE_SIZE, the cap the GraphQL budget prices the listing at", () => {
    expect(FIELD_MAX_ROWS["Query.files"]).toBe(MAX_PAGE_SIZE);
  });

  it("renames a file without changing its extension, and never onto a sibling's name", async () => {
    const base = await files.createFolder(asOwner, null, "renaming");
    const [a] = await files.upload(asOwner, base.id, [{ path: "a.txt", data: Buffer.from("a") }, { path: "b.txt", data: Buffer.from("b") }]);
    expect((await files.rename(asOwner, a.id, "first.txt")).name).toBe("first.txt");
    expect(await refusal(files.rename(asOwner, a.id, "first.pdf"))).toEqual({ kind: "BAD_REQUEST", messageKey: "errors.file.extensionChanged" });
    expect(await refusal(files.rename(asOwner, a.id, "B.txt"))).toEqual({ kind: "CONFLICT", messageKey: "errors.file.nameTaken" });
    expect(await refusal(files.rename(asOwner, (await files.root(asOwner)).id, "root"))).toEqual({ kind: "FORBIDDEN", messageKey: "errors.file.readOnly" });
  });

  it("moves one or many into a folder, never a folder into itself or below it, never onto a name there", async () => {
    const base = await files.createFolder(asOwner, null, "moving");
    const outer = await files.createFolder(asOwner, base.id, "outer");
    const inner = await files.createFolder(asOwner, outer.id, "inner");
    const [x, y] = await files.upload(asOwner, base.id, [{ path: "x.txt", data: Buffer.from("x") }, { path: "y.txt", data: Buffer.from("y") }]);
    const moved = await files.move(asOwner, [x.id, y.id], inner.id);
    expect(moved.map((m) => m.parentId)).toEqual([inner.id, inner.id]);
    expect(await refusal(files.move(asOwner, [outer.id], inner.id))).toEqual({ kind: "BAD_REQUEST", messageKey: "errors.file.moveIntoItself" });
    expect(await refusal(files.move(asOwner, [outer.id], outer.id))).toEqual({ kind: "BAD_REQUEST", messageKey: "errors.file.moveIntoItself" });
    await files.upload(asOwner, base.id, [{ path: "x.txt", data: Buffer.from("another x") }]);
    const [clash] = (await files.list(asOwner, { parentId: base.id, search: "x.txt" })).items;
    expect(await refusal(files.move(asOwner, [clash.id], inner.id))).toEqual({ kind: "CONFLICT", messageKey: "errors.file.moveNameTaken" });
    expect(names((await files.folders(asOwner, outer.id)))).toEqual(["inner"]);
  });
});

describe("links to knowledge bases", () => {
  let kb: string;
  let other: string;

  beforeAll(async () => {
    kb = await createDataset(server, owner, { name: "handbook", permission: "team" });
    other = await createDataset(server, owner, { name: "archive" });
  });

  const documentsOf = (knowledgeBaseId: string) => server.services.platform.db.getRepository(Document).findBy({ knowledgeBaseId });

  it("makes a file a document of several knowledge bases sharing its bytes, parses it, lists the links, and renames them with it", async () => {
    const [file] = await files.upload(asOwner, null, [{ path: "policy.md", data: Buffer.from("# Leave policy\nTwenty days a year.") }]);
    const [linked] = await files.link(asOwner, [file.id], [kb, other]);
    expect(linked.knowledgeBases.map((l) => l.name).sort()).toEqual(["archive", "handbook"]);
    const [document] = await documentsOf(kb);
    const storageKey = (await server.services.platform.db.query(`SELECT storage_key FROM file WHERE id = $1`, [file.id]))[0].storage_key;
    expect(document).toMatchObject({ name: "policy.md", storageKey, sourceType: "file" });
    expect(document.run).not.toBe("0");
    // Linking again keeps the one link.
    await files.link(asOwner, [file.id], [kb]);
    expect(await documentsOf(kb)).toHaveLength(1);
    // Renaming the file renames its documents, as RAGFlow does.
    await files.rename(asOwner, file.id, "leave-policy.md");
    expect((await documentsOf(other)).map((d) => d.name)).toEqual(["leave-policy.md"]);
  });

  it("unlinks by removing the document, and neither a deleted document nor an unlink deletes the file's bytes", async () => {
    const [file] = await files.upload(asOwner, null, [{ path: "shared.txt", data: Buffer.from("kept bytes") }]);
    const [linked] = await files.link(asOwner, [file.id], [kb, other]);
    const inKb = linked.knowledgeBases.find((l) => l.id === kb)!;
    const inOther = linked.knowledgeBases.find((l) => l.id === other)!;
    expect((await files.unlink(asOwner, file.id, kb)).knowledgeBases.map((l) => l.id)).toEqual([other]);
    expect(await server.services.platform.db.getRepository(Document).existsBy({ id: inKb.documentId })).toBe(false);
    await server.services.documents.delete(asOwner, [inOther.documentId]);
    expect((await files.entry(asOwner, file.id)).knowledgeBases).toEqual([]);
    expect(await read((await files.download(asOwner, file.id)).body)).toBe("kept bytes");
  });

  it("says which documents go before deleting a folder, destroys them with it (the REST API's delete), and then the bytes nothing holds", async () => {
    const folder = await files.createFolder(asOwner, null, "to-delete");
    const [deep] = await files.upload(asOwner, folder.id, [{ path: "sub/deep.txt", data: Buffer.from("deep") }, { path: "loose.bin", data: Buffer.from("not a document type") }]);
    await files.link(asOwner, [folder.id], [kb]);
    const impact = await files.deletionImpact(asOwner, [folder.id]);
    expect(impact).toMatchObject({ files: 2, folders: 2, documents: [{ fileId: deep.id, fileName: "deep.txt", knowledgeBaseName: "handbook" }] });
    const before = storedFiles(owner.tenantId).length;
    expect(await files.destroy(asOwner, [folder.id])).toEqual(impact);
    expect(await server.services.platform.db.getRepository(Document).existsBy({ id: impact.documents[0].documentId })).toBe(false);
    expect(storedFiles(owner.tenantId).length).toBe(before - 2);
    expect(await refusal(files.entry(asOwner, folder.id))).toEqual({ kind: "NOT_FOUND", messageKey: "errors.file.notFound" });
  });

  it("refuses linking a file no parser reads, and a knowledge base the user may not change", async () => {
    const [file] = await files.upload(asOwner, null, [{ path: "tool.exe", data: Buffer.from("MZ") }]);
    expect(await refusal(files.link(asOwner, [file.id], [kb]))).toEqual({ kind: "BAD_REQUEST", messageKey: "errors.knowledge.fileTypeUnsupported" });
    const strangersKb = await createDataset(server, stranger, { name: "not yours" });
    const [text] = await files.upload(asOwner, null, [{ path: "link-me.txt", data: Buffer.from("x") }]);
    expect((await refusal(files.link(asOwner, [text.id], [strangersKb]))).kind).toBe("NOT_FOUND");
  });

  it("shows documents uploaded straight into a knowledge base under a read-only .knowledgebase/<name>/", async () => {
    const [documentId] = await uploadDocuments(server, owner, kb, [{ name: "direct.txt", data: "uploaded to the knowledge base" }]);
    const root = await files.list(asOwner, {});
    const kbRoot = root.items[0];
    expect(kbRoot).toMatchObject({ name: ".knowledgebase", readOnly: true, can: { read: true, manage: false, delete: false } });
    const folders = await files.list(asOwner, { parentId: kbRoot.id, sort: FileSort.name, desc: false });
    expect(names(folders.items)).toEqual(["archive", "handbook"]);
    const handbook = folders.items[1];
    const listed = await files.list(asOwner, { parentId: handbook.id });
    expect(listed.items.map((e) => ({ name: e.name, documentId: e.documentId, readOnly: e.readOnly }))).toEqual([{ name: "direct.txt", documentId, readOnly: true }]);
    expect(names(listed.path)).toEqual(["/", ".knowledgebase", "handbook"]);
    const entry = listed.items[0];
    expect(await read((await files.download(asOwner, entry.id)).body)).toBe("uploaded to the knowledge base");
    const rootId = (await files.root(asOwner)).id;
    const attempts = [() => files.rename(asOwner, entry.id, "x.txt"), () => files.delete(asOwner, [handbook.id]), () => files.move(asOwner, [entry.id], rootId), () => files.createFolder(asOwner, handbook.id, "new")];
    for (const attempt of attempts) {
      expect(await refusal(attempt())).toEqual({ kind: "FORBIDDEN", messageKey: "errors.file.readOnly" });
    }
  });
});

describe("who may do what", () => {
  let privateFile: string;
  let teamFile: string;

  beforeAll(async () => {
    const teamKb = await createDataset(server, owner, { name: "team kb", permission: "team" });
    [{ id: privateFile }, { id: teamFile }] = await files.upload(asOwner, null, [{ path: "private.txt", data: Buffer.from("p") }, { path: "team.txt", data: Buffer.from("t") }]);
    await files.link(asOwner, [teamFile], [teamKb]);
  });

  it("answers another tenant as if the file did not exist, whatever it tries", async () => {
    const ownersRoot = (await files.root(asOwner)).id;
    const attempts = [() => files.entry(asStranger, privateFile), () => files.download(asStranger, teamFile), () => files.rename(asStranger, privateFile, "mine.txt"), () => files.delete(asStranger, [privateFile]), () => files.list(asStranger, { parentId: ownersRoot })];
    for (const attempt of attempts) {
      expect(await refusal(attempt())).toEqual({ kind: "NOT_FOUND", messageKey: expect.stringMatching(/^errors\.file\.(notFound|folderNotFound)$/) });
    }
  });

  it("lets a team member read and use a file linked to a team knowledge base, and refuses managing or deleting it", async () => {
    expect((await files.entry(asMember, teamFile)).can).toEqual({ read: true, use: true, manage: false, delete: false });
    expect(await read((await files.download(asMember, teamFile)).body)).toBe("t");
    expect(await refusal(files.rename(asMember, teamFile, "renamed.txt"))).toEqual({ kind: "FORBIDDEN", messageKey: "errors.file.forbidden" });
    expect(await refusal(files.delete(asMember, [teamFile]))).toEqual({ kind: "FORBIDDEN", messageKey: "errors.file.forbidden" });
    expect(await refusal(files.entry(asMember, privateFile))).toEqual({ kind: "NOT_FOUND", messageKey: "errors.file.notFound" });
  });

  it("lets a team member link a shared file into their own knowledge base, whose document outlives the owner's deletion with its bytes", async () => {
    const membersKb = await createDataset(server, member, { name: "member's own" });
    const [linked] = await files.link(asMember, [teamFile], [membersKb]);
    const mine = linked.knowledgeBases.find((l) => l.id === membersKb)!;
    const impact = await files.delete(asOwner, [teamFile]);
    expect(impact.documents.map((d) => `${d.knowledgeBaseName}: ${d.removed}`).sort()).toEqual(["member's own: false", "team kb: true"]);
    expect(await read((await server.services.documents.download(asMember, mine.documentId)).body)).toBe("t");
  });
});
