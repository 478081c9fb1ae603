import { sharedTestServer, type HttpTestServer } from "../../testing/app";
import { apiUser, createDataset, multipart, type ApiUser } from "../../testing/rest-support";

/**
 * RAGFlow v0.24.0's file manager API (contract §12), called as RAGFlow's SDK calls it: API key, json_result envelope
 * (code, message and data always), RAGFlow's codes inside HTTP 200; and the web page's /v1/files upload and download.
 */

let server: HttpTestServer;
let user: ApiUser;
let stranger: ApiUser;

const call = (method: string, path: string, body?: unknown, who: ApiUser = user) => server.rest(method, path, { token: who.key, body });
const ROW_KEYS = ["create_date", "create_time", "created_by", "id", "location", "name", "parent_id", "size", "source_type", "tenant_id", "type", "update_date", "update_time"];

beforeAll(async () => {
  // the worker's server: every suite signs its own users up
  server = await sharedTestServer();
  [user, stranger] = [await apiUser(server), await apiUser(server)];
});
afterAll(() => server.close());

describe("/api/v1/file", () => {
  let root: Record<string, unknown>;
  let folderId: string;

  it("answers the root folder, its own parent, named /", async () => {
    const { status, body } = await call("GET", "/api/v1/file/root_folder");
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["code", "data", "message"]);
    root = body.data.root_folder;
    expect(Object.keys(root).sort()).toEqual(ROW_KEYS);
    expect(root).toMatchObject({ name: "/", type: "folder", parent_id: root.id, tenant_id: user.tenantId, source_type: "" });
  });

  it("creates a folder, refuses its name twice with 409 and an unknown parent with 400, and needs a name", async () => {
    const created = await call("POST", "/api/v1/file/create", { name: "docs", type: "folder" });
    expect(created.body).toMatchObject({ code: 0, message: "success", data: { name: "docs", type: "folder", parent_id: root.id } });
    folderId = created.body.data.id;
    expect((await call("POST", "/api/v1/file/create", { name: "docs", type: "folder" })).body).toEqual({ code: 409, message: "Duplicated folder name in the same folder.", data: null });
    expect((await call("POST", "/api/v1/file/create", { name: "x", type: "folder", parent_id: "f".repeat(32) })).body).toEqual({ code: 400, message: "Parent Folder Doesn't Exist!", data: null });
    expect((await call("POST", "/api/v1/file/create", { type: "folder" })).body).toEqual({ code: 100, message: "KeyError('name')", data: null });
    const virtual = await call("POST", "/api/v1/file/create", { name: "empty.txt", type: "FOLDER", parent_id: folderId });
    expect(virtual.body.data).toMatchObject({ name: "empty.txt", type: "virtual", size: 0 });
  });

  it("uploads files, a name with / making sub-folders, and answers their rows", async () => {
    const uploaded = await multipart(server, "/api/v1/file/upload", `Bearer ${user.key}`, [{ name: "a.txt", data: "alpha" }, { name: "nested/deeper/b.md", data: "# beta" }, { name: "a.txt", data: "again" }], { parent_id: folderId });
    expect(uploaded.body.code).toBe(0);
    expect(uploaded.body.data.map((row: { name: string; type: string }) => [row.name, row.type])).toEqual([["a.txt", "doc"], ["b.md", "doc"], ["a(1).txt", "doc"]]);
    expect((await multipart(server, "/api/v1/file/upload", `Bearer ${user.key}`, [], { parent_id: folderId })).body).toEqual({ code: 400, message: "No file part!", data: false });
    expect((await multipart(server, "/api/v1/file/upload", `Bearer ${user.key}`, [{ name: "c.txt", data: "c" }], { parent_id: "f".repeat(32) })).body).toEqual({ code: 404, message: "Can't find this folder!", data: null });
  });

  it("lists a folder in pages of 15 by default, with knowledge bases on files and child folders on folders", async () => {
    const listed = await call("GET", `/api/v1/file/list?parent_id=${folderId}&orderby=name&desc=`);
    expect(listed.body.code).toBe(0);
    expect(Object.keys(listed.body.data).sort()).toEqual(["files", "parent_folder", "total"]);
    expect(listed.body.data.total).toBe(4);
    expect(listed.body.data.parent_folder).toMatchObject({ id: folderId, name: "docs" });
    const files = listed.body.data.files as Record<string, unknown>[];
    expect(files.map((f) => f.name)).toEqual(["nested", "a(1).txt", "a.txt", "empty.txt"]);
    expect(files[0]).toMatchObject({ type: "folder", kbs_info: [], has_child_folder: true, size: 6 });
    expect(files[2]).toMatchObject({ kbs_info: [], size: 5 });
    expect((await call("GET", `/api/v1/file/list?parent_id=${folderId}&keywords=A(1)`)).body.data.files.map((f: { name: string }) => f.name)).toEqual(["a(1).txt"]);
    expect((await call("GET", `/api/v1/file/list?parent_id=${folderId}&page=x`)).body).toEqual({ code: 100, message: "ValueError(\"invalid literal for int() with base 10: 'x'\")", data: null });
    expect((await call("GET", `/api/v1/file/list?parent_id=${"f".repeat(32)}`)).body).toEqual({ code: 404, message: "Folder not found!", data: null });
    expect((await call("GET", "/api/v1/file/list")).body.data.parent_folder.id).toBe(root.id);
  });

  it("renames, keeping the extension and the name free, and answers each refusal with RAGFlow's words", async () => {
    const [file] = (await call("GET", `/api/v1/file/list?parent_id=${folderId}&keywords=a.txt`)).body.data.files;
    expect((await call("POST", "/api/v1/file/rename", { file_id: file.id, name: "alpha.txt" })).body).toEqual({ code: 0, message: "success", data: true });
    expect((await call("POST", "/api/v1/file/rename", { file_id: file.id, name: "alpha.pdf" })).body).toEqual({ code: 400, message: "The extension of file can't be changed", data: null });
    expect((await call("POST", "/api/v1/file/rename", { file_id: file.id, name: "a(1).txt" })).body).toEqual({ code: 409, message: "Duplicated file name in the same folder.", data: null });
    expect((await call("POST", "/api/v1/file/rename", { file_id: "f".repeat(32), name: "x.txt" })).body).toEqual({ code: 404, message: "File not found!", data: null });
  });

  it("answers a file's folders up to the root, nearest first, and its parent", async () => {
    const [nested] = (await call("GET", `/api/v1/file/list?parent_id=${folderId}&keywords=nested`)).body.data.files;
    const [deeper] = (await call("GET", `/api/v1/file/list?parent_id=${nested.id}`)).body.data.files;
    const parents = await call("GET", `/api/v1/file/all_parent_folder?file_id=${deeper.id}`);
    expect(parents.body.data.parent_folders.map((f: { name: string }) => f.name)).toEqual(["deeper", "nested", "docs", "/"]);
    expect((await call("GET", `/api/v1/file/parent_folder?file_id=${deeper.id}`)).body.data.parent_folder.name).toBe("nested");
    expect((await call("GET", `/api/v1/file/all_parent_folder?file_id=${"f".repeat(32)}`)).body).toEqual({ code: 404, message: "Folder not found!", data: null });
  });

  it("gets a file's bytes with RAGFlow's content type, as an attachment nothing sniffs", async () => {
    const [file] = (await call("GET", `/api/v1/file/list?parent_id=${folderId}&keywords=alpha`)).body.data.files;
    const response = await fetch(`${server.url}/api/v1/file/get/${file.id}`, { headers: { authorization: `Bearer ${user.key}` } });
    expect(response.headers.get("content-type")).toMatch(/^application\/txt/);
    expect(response.headers.get("content-disposition")).toBe("attachment; filename=alpha.txt");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await response.text()).toBe("alpha");
    expect((await call("GET", `/api/v1/file/get/${"f".repeat(32)}`)).body).toEqual({ code: 404, message: "Document not found!", data: null });
  });

  it("moves files into a folder, and refuses an unknown destination", async () => {
    const target = (await call("POST", "/api/v1/file/create", { name: "archive", type: "folder" })).body.data.id;
    const [file] = (await call("GET", `/api/v1/file/list?parent_id=${folderId}&keywords=alpha`)).body.data.files;
    expect((await call("POST", "/api/v1/file/mv", { src_file_ids: [file.id], dest_file_id: target })).body).toEqual({ code: 0, message: "success", data: true });
    expect((await call("GET", `/api/v1/file/list?parent_id=${target}`)).body.data.files.map((f: { name: string }) => f.name)).toEqual(["alpha.txt"]);
    expect((await call("POST", "/api/v1/file/mv", { src_file_ids: [file.id], dest_file_id: "f".repeat(32) })).body).toEqual({ code: 404, message: "Parent Folder not found!", data: null });
    expect((await call("POST", "/api/v1/file/mv", { src_file_ids: ["f".repeat(32)], dest_file_id: folderId })).body).toEqual({ code: 404, message: "File or Folder not found!", data: null });
  });

  it("converts files into documents of datasets, replacing earlier links, and lists them as kbs_info", async () => {
    const first = await createDataset(server, user, { name: "first" });
    const second = await createDataset(server, user, { name: "second" });
    const [file] = (await call("GET", `/api/v1/file/list?parent_id=${folderId}&keywords=a(1)`)).body.data.files;
    const converted = await call("POST", "/api/v1/file/convert", { file_ids: [file.id], kb_ids: [first] });
    expect(converted.body.code).toBe(0);
    expect(Object.keys(converted.body.data[0]).sort()).toEqual(["create_date", "create_time", "document_id", "file_id", "id", "update_date", "update_time"]);
    await call("POST", "/api/v1/file/convert", { file_ids: [file.id], kb_ids: [second] });
    const [listed] = (await call("GET", `/api/v1/file/list?parent_id=${folderId}&keywords=a(1)`)).body.data.files;
    expect(listed.kbs_info).toEqual([{ kb_id: second, kb_name: "second" }]);
    const documents = await call("GET", `/api/v1/datasets/${second}/documents`);
    expect(documents.body.data.docs.map((d: { name: string }) => d.name)).toEqual(["a(1).txt"]);
    expect((await call("POST", "/api/v1/file/convert", { file_ids: [file.id], kb_ids: ["f".repeat(32)] })).body).toEqual({ code: 404, message: "Can't find this dataset!", data: null });
  });

  it("removes folders recursively with their linked documents, and answers another tenant as if nothing were there", async () => {
    expect((await call("POST", "/api/v1/file/rm", { file_ids: [folderId] }, stranger)).body).toEqual({ code: 404, message: "File or Folder not found!", data: null });
    expect((await call("POST", "/api/v1/file/rm", { file_ids: [folderId] })).body).toEqual({ code: 0, message: "success", data: true });
    expect((await call("GET", `/api/v1/file/list?parent_id=${folderId}`)).body.code).toBe(404);
    expect((await call("POST", "/api/v1/file/rm", { file_ids: [folderId] })).body).toEqual({ code: 404, message: "File or Folder not found!", data: null });
  });

  it("answers a missing API key as RAGFlow does", async () => {
    expect((await server.rest("GET", "/api/v1/file/root_folder")).body).toEqual({ code: 0, message: "`Authorization` can't be empty", data: false });
  });
});

describe("/v1/files upload and download (the /file page)", () => {
  it("uploads a folder by relative paths into a folder, and downloads a file as a safe attachment", async () => {
    const folder = (await call("POST", "/api/v1/file/create", { name: "web", type: "folder" })).body.data.id;
    const uploaded = await multipart(server, "/v1/files/upload", `Bearer ${user.token}`, [{ name: "album/photos/résumé.txt", data: "bytes" }], { parentId: folder });
    expect(uploaded.status).toBe(200);
    const [entry] = uploaded.body.data;
    expect(entry).toMatchObject({ name: "résumé.txt", kind: "file", suffix: "txt", size: 5, readOnly: false, can: { read: true, use: true, manage: true, delete: true } });
    const download = await fetch(`${server.url}/v1/files/${entry.id}/download`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(download.headers.get("content-type")).toBe("application/octet-stream");
    expect(download.headers.get("content-disposition")).toBe("attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.txt");
    expect(await download.text()).toBe("bytes");
    const inline = await fetch(`${server.url}/v1/files/${entry.id}/download?inline=1`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(inline.headers.get("content-type")).toMatch(/^text\/plain/);
  });

  it("answers refusals with their HTTP status and message key", async () => {
    const refused = await multipart(server, "/v1/files/upload", `Bearer ${user.token}`, [{ name: "x.txt", data: "x" }], { parentId: "f".repeat(32) });
    expect(refused).toMatchObject({ status: 404, body: { messageKey: "errors.file.notFound" } });
    const theirs = await fetch(`${server.url}/v1/files/${"f".repeat(32)}/download`, { headers: { authorization: `Bearer ${stranger.token}` } });
    expect(theirs.status).toBe(404);
    expect((await fetch(`${server.url}/v1/files/${"f".repeat(32)}/download`)).status).toBe(401);
  });
});
