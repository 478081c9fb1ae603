import { signUpAndIn, type HttpTestServer } from "./app";

/** A REST client of the knowledge endpoints as RAGFlow's SDK tests use them: an account, its API key, its tenant. */
export interface ApiUser {
  token: string;
  key: string;
  tenantId: string;
}

/** Signs up, issues an API key and picks the defaults RAGFlow's suite picks (BAAI/bge-small-en-v1.5@Builtin). */
export async function apiUser(server: HttpTestServer): Promise<ApiUser> {
  const { token, userId } = await signUpAndIn(server);
  const issued = await server.rest("POST", "/v1/system/new_token", { authorization: token });
  await server.rest("POST", "/v1/user/set_tenant_info", {
    authorization: token,
    body: { tenant_id: userId, llm_id: "", embd_id: "BAAI/bge-small-en-v1.5@Builtin", img2txt_id: "", asr_id: "" },
  });
  return { token, key: issued.body.data.token, tenantId: userId };
}

/** Sends a raw body with a content type of one's choosing. */
export async function rawRequest(server: HttpTestServer, method: string, path: string, key: string, contentType: string | null, body: string) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(contentType ? { "content-type": contentType } : {}) },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface FilePart {
  name: string;
  data: string | Buffer;
}

/** A multipart upload: each file as a `file` part, plus text fields. */
export async function multipart(server: HttpTestServer, path: string, authorization: string, files: FilePart[], fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const file of files) form.append("file", new Blob([typeof file.data === "string" ? file.data : new Uint8Array(file.data)]), file.name);
  const response = await fetch(`${server.url}${path}`, { method: "POST", headers: { authorization }, body: form });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) };
}

export async function createDataset(server: HttpTestServer, user: ApiUser, body: Record<string, unknown> = {}): Promise<string> {
  const created = await server.rest("POST", "/api/v1/datasets", { token: user.key, body: { name: `kb-${Math.random().toString(36).slice(2)}`, ...body } });
  if (created.body.code !== 0) throw new Error(JSON.stringify(created.body));
  return created.body.data.id;
}

export async function uploadDocuments(server: HttpTestServer, user: ApiUser, datasetId: string, files: FilePart[]): Promise<string[]> {
  const uploaded = await multipart(server, `/api/v1/datasets/${datasetId}/documents`, `Bearer ${user.key}`, files);
  if (uploaded.body.code !== 0) throw new Error(JSON.stringify(uploaded.body));
  return uploaded.body.data.map((d: { id: string }) => d.id);
}

/** Polls the document list, as RAGFlow's suite does, until no document is being parsed. */
export async function waitForParsing(server: HttpTestServer, user: ApiUser, datasetId: string, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const listed = await server.rest("GET", `/api/v1/datasets/${datasetId}/documents?page_size=100`, { token: user.key });
    const docs = listed.body.data.docs as { run: string }[];
    if (docs.every((d) => d.run !== "RUNNING")) return docs;
    if (Date.now() > deadline) throw new Error(`parsing did not finish: ${JSON.stringify(docs)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
