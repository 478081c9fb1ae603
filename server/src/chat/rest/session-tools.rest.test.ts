import { sharedTestServer, type HttpTestServer } from "../../testing/app";
import { startFakeChatServer, type FakeChatServer } from "../testing/fake-chat-server";
import { createDataset } from "../../testing/rest-support";
import { addFakeModel, chatUser, parsedKnowledgeBase, type ChatUser } from "../testing/support";

/** The sessions' tools of contract §11: `/api/v1/sessions/related_questions` and `/api/v1/sessions/ask`. */

let server: HttpTestServer;
let fake: FakeChatServer;
let withModel: ChatUser;
let builtin: ChatUser;
let empty: ChatUser;
let tents: string;

const ask = (user: ChatUser | null, body: unknown) => server.rest("POST", "/api/v1/sessions/related_questions", { token: user?.key ?? "ragflow-invalid", body });

beforeAll(async () => {
  server = await sharedTestServer();
  fake = await startFakeChatServer({ reply: () => "Related search terms:\n1. Tent prices\n2. Tent sizes\nA line without a number\n10. Two digits are not RAGFlow's form" });
  [withModel, builtin, empty] = [await chatUser(server), await chatUser(server), await chatUser(server)];
  const model = await addFakeModel(server, withModel, fake);
  await server.rest("POST", "/v1/user/set_tenant_info", {
    authorization: withModel.token,
    body: { tenant_id: withModel.tenantId, llm_id: model, embd_id: "BAAI/bge-small-en-v1.5@Builtin", img2txt_id: "", asr_id: "" },
  });
  ({ datasetId: tents } = await parsedKnowledgeBase(server, builtin, [
    { name: "tents.txt", data: "The Glacier three-season tent weighs two kilograms. Waterproof flysheets keep mountain campers dry. Aluminium tent poles survive strong winds." },
  ]));
}, 150_000);
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

describe("related questions", () => {
  it("asks the tenant's language model with RAGFlow's prompt and answers its numbered lines without numbers", async () => {
    const answered = await ask(withModel, { question: "tent", industry: "outdoor retail" });
    expect(answered.body).toEqual({ code: 0, data: ["Tent prices", "Tent sizes"] });
    const sent = fake.requests.at(-1)!.body.messages as { role: string; content: string }[];
    expect(sent[0].content).toContain("generate 5-10 related search terms");
    expect(sent[0].content).toContain("Ensure all search terms are relevant to the industry: outdoor retail.");
    expect(sent[1].content).toContain("Keywords: tent");
  });

  it("with the built-in model, offers terms from the tenant's own knowledge that go beyond the keywords", async () => {
    const answered = await ask(builtin, { question: "tent" });
    expect(answered.body.code).toBe(0);
    const terms = answered.body.data as string[];
    expect(terms.length).toBeGreaterThan(0);
    expect(terms.length).toBeLessThanOrEqual(10);
    expect(terms.every((term) => term.toLowerCase() !== "tent")).toBe(true);
    expect(terms.some((term) => /glacier|flysheet|pole|camper/i.test(term))).toBe(true);
  });

  it("with the built-in model and no knowledge, answers an empty list", async () => {
    expect((await ask(empty, { question: "tent" })).body).toEqual({ code: 0, data: [] });
  });

  it("refuses a missing or empty question and an invalid key as RAGFlow does", async () => {
    expect((await ask(builtin, { industry: "search" })).body).toEqual({ code: 102, message: "`question` is required." });
    expect((await ask(builtin, { question: "" })).body).toEqual({ code: 102, message: "`question` is required." });
    expect((await ask(null, { question: "tent" })).body).toEqual({ code: 109, message: "Authentication error: API key is invalid!", data: false });
  });
});

describe("asking datasets without an assistant", () => {
  /** The SSE frames of an answer, parsed. */
  async function askStream(user: ChatUser, body: unknown): Promise<{ contentType: string | null; frames: Record<string, any>[] }> { // eslint-disable-line @typescript-eslint/no-explicit-any
    const response = await fetch(`${server.url}/api/v1/sessions/ask`, { method: "POST", headers: { authorization: `Bearer ${user.key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    const text = await response.text();
    return { contentType: response.headers.get("content-type"), frames: text.split("\n\n").filter(Boolean).map((frame) => JSON.parse(frame.replace(/^data:/, ""))) };
  }

  it("streams the answer's pieces, a final frame with the cited chunks, then true", async () => {
    const { contentType, frames } = await askStream(builtin, { question: "How much does the Glacier tent weigh?", dataset_ids: [tents] });
    expect(contentType).toContain("text/event-stream");
    const pieces = frames.slice(0, -2);
    expect(pieces.length).toBeGreaterThan(0);
    expect(pieces.every((f) => f.code === 0 && f.message === "" && f.data.final === false && typeof f.data.answer === "string")).toBe(true);
    expect(pieces.map((f) => f.data.answer).join("")).toMatch(/two kilograms/);
    const final = frames.at(-2)!;
    expect(final).toMatchObject({ code: 0, message: "", data: { answer: "", final: true, reference: { doc_aggs: [{ doc_name: "tents.txt" }] } } });
    expect(final.data.reference.chunks[0]).toMatchObject({ dataset_id: tents, document_name: "tents.txt" });
    expect(frames.at(-1)).toEqual({ code: 0, message: "", data: true });
  });

  it("refuses as RAGFlow does, in its order", async () => {
    const unparsed = await createDataset(server, builtin);
    const ask = (body: unknown) => server.rest("POST", "/api/v1/sessions/ask", { token: builtin.key, body });
    expect((await ask({ dataset_ids: [tents] })).body).toEqual({ code: 102, message: "`question` is required." });
    expect((await ask({ question: "q", dataset_ids: [] })).body).toEqual({ code: 102, message: "`dataset_ids` is required." });
    expect((await ask({ question: "q", dataset_ids: tents })).body).toEqual({ code: 102, message: "`dataset_ids` should be a list." });
    expect((await ask({ question: "q", dataset_ids: [tents, "unknown"] })).body).toEqual({ code: 102, message: "You don't own the dataset unknown." });
    expect((await ask({ question: "q", dataset_ids: [unparsed] })).body).toEqual({ code: 102, message: `The dataset ${unparsed} doesn't own parsed file` });
    expect((await server.rest("POST", "/api/v1/sessions/ask", { token: empty.key, body: { question: "q", dataset_ids: [tents] } })).body).toEqual({ code: 102, message: `You don't own the dataset ${tents}.` });
  });
});
