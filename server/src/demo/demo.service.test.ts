import type { SignedIn } from "../policies/principal";
import { RUN } from "../knowledge/document.entity";
import { signUpAndIn, startTestServer, type TestServer } from "../testing/app";
import { DEMO_MARK, type DemoState } from "./demo.service";
import { SAMPLE_FILES, SAMPLE_QUESTIONS } from "./samples";

/** The guided demo through DemoService on a real server: the embedded database, the parse pipeline and the built-in models. */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ MODEL_CACHE_DIR: "/tmp/cairn-model-cache" });
}, 120_000);
afterAll(() => server?.close());

async function member(): Promise<SignedIn> {
  const { token } = await signUpAndIn(server);
  const principal = await server.services.principalFor(`Bearer ${token}`);
  if (principal.kind !== "session") throw new Error("not signed in");
  return principal;
}

/** Starts the demo until the assistant exists: the first start queues the parsing, later ones finish what is missing. */
async function finishedDemo(user: SignedIn): Promise<DemoState> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const status = await server.services.demo.status(user);
    const failed = status.documents.filter((d) => d.run === RUN.failed || d.run === RUN.cancelled);
    if (failed.length > 0) throw new Error(`parsing failed: ${JSON.stringify(failed.map((d) => [d.name, d.progressMsg]))}`);
    if (status.documents.length === SAMPLE_FILES.length && status.documents.every((d) => d.run === RUN.done)) return server.services.demo.start(user);
    if (Date.now() > deadline) throw new Error(`the demo did not finish: ${JSON.stringify(status.documents.map((d) => [d.name, d.run, d.progress]))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the guided demo", () => {
  let user: SignedIn;
  let first: DemoState;
  let finished: DemoState;

  beforeAll(async () => {
    user = await member();
    // The user's own knowledge base that happens to bear the demo's name.
    await server.services.knowledgeBases.create(user, { name: "Cairn demo", description: "mine" });
    first = await server.services.demo.start(user);
    finished = await finishedDemo(user);
  }, 120_000);

  it("makes a knowledge base of the samples with their parsing queued, and a flow retrieving from it", async () => {
    expect(first.knowledgeBase).toMatchObject({ avatar: DEMO_MARK, language: "English" });
    expect(first.documents.map((d) => d.name).sort()).toEqual([...SAMPLE_FILES].sort());
    expect(first.documents.every((d) => d.run !== RUN.unstarted)).toBe(true);
    expect(first.flow).toMatchObject({ title: "Cairn demo flow", avatar: DEMO_MARK });
    const retrieval = Object.values(first.flow!.dsl.components).find((c) => c.obj.component_name === "Retrieval");
    expect(retrieval?.obj.params.kb_ids).toEqual([first.knowledgeBase!.id]);
    expect(first.questions).toEqual(SAMPLE_QUESTIONS);
  });

  it("leaves the user's own knowledge base of the same name alone and names the demo's beside it", async () => {
    expect(first.knowledgeBase!.name).toBe("Cairn demo(1)");
    const { items } = await server.services.knowledgeBases.list(user, { search: "Cairn demo" });
    const own = items.find((kb) => kb.name === "Cairn demo");
    expect(own).toMatchObject({ description: "mine", documentCount: 0 });
    expect(own!.avatar).toBeNull();
  });

  it("adds the assistant once the samples are parsed, with the samples' questions in its opener", async () => {
    expect(finished.documents.every((d) => d.run === RUN.done && d.chunkCount > 0)).toBe(true);
    expect(finished.assistant).toMatchObject({ name: "Cairn demo assistant", icon: DEMO_MARK, kbIds: [finished.knowledgeBase!.id] });
    for (const question of SAMPLE_QUESTIONS) expect(finished.assistant!.opener).toContain(question);
  });

  it("a second start makes nothing new: the same knowledge base, documents, assistant and flow", async () => {
    const again = await server.services.demo.start(user);
    expect(again.knowledgeBase!.id).toBe(finished.knowledgeBase!.id);
    expect(again.documents.map((d) => d.id)).toEqual(finished.documents.map((d) => d.id));
    expect(again.assistant!.id).toBe(finished.assistant!.id);
    expect(again.flow!.id).toBe(finished.flow!.id);
    expect((await server.services.knowledgeBases.list(user)).total).toBe(2);
    expect((await server.services.assistants.list(user)).total).toBe(1);
    expect((await server.services.flows.list(user)).total).toBe(1);
  });

  it("two clicks at once make one demo", async () => {
    const other = await member();
    const [a, b] = await Promise.all([server.services.demo.start(other), server.services.demo.start(other)]);
    expect(a.knowledgeBase!.id).toBe(b.knowledgeBase!.id);
    expect((await server.services.knowledgeBases.list(other)).total).toBe(1);
    expect((await server.services.flows.list(other)).total).toBe(1);
  });

  it("resumes a demo that lost a document: the missing sample is uploaded and parsed again", async () => {
    const planets = finished.documents.find((d) => d.name === "planets.csv")!;
    await server.services.documents.delete(user, [planets.id]);
    const resumed = await server.services.demo.start(user);
    expect(resumed.knowledgeBase!.id).toBe(finished.knowledgeBase!.id);
    expect(resumed.documents.map((d) => d.name).sort()).toEqual([...SAMPLE_FILES].sort());
    const restored = resumed.documents.find((d) => d.name === "planets.csv")!;
    expect(restored.id).not.toBe(planets.id);
    expect(restored.run).not.toBe(RUN.unstarted);
    finished = await finishedDemo(user);
  });

  it.each([
    ["Why do hikers build cairns?", /mark a trail/],
    ["How many moons does Mars have?", /Mars/],
    ["How long should sourdough dough rest in the refrigerator?", /8 to 14 hours/],
    ["How large can an uploaded file be?", /10 MB/],
  ])("the assistant answers the suggested question %p from the samples, citing the chunk it quotes", async (question, expected) => {
    expect(SAMPLE_QUESTIONS).toContain(question);
    const actor = { principal: user };
    const conversation = await server.services.conversations.create(actor, finished.assistant!.id);
    const asked = await server.services.conversations.ask(actor, conversation.id, { question });
    await asked.finished;
    const answer = await server.services.conversations.message(actor, asked.answer.id);
    expect(answer.status).toBe("done");
    const cited = [...answer.content.matchAll(/\[ID:(\d+)\]/g)].map((m) => Number(m[1]));
    expect(cited.length).toBeGreaterThan(0);
    expect(cited.map((n) => answer.reference!.chunks[n].content).join("\n")).toMatch(expected);
  });

  it("a stranger sees no demo of someone else's", async () => {
    const stranger = await member();
    const status = await server.services.demo.status(stranger);
    expect(status).toMatchObject({ knowledgeBase: null, documents: [], assistant: null, flow: null });
  });
});
