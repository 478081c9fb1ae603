import type { SharePrincipal } from "../policies/principal";
import { DomainError } from "../platform/errors";
import { newId } from "../platform/ids";
import { startTestServer, type TestServer } from "../testing/app";
import type { ChatAssistant } from "./assistant.entity";
import type { ChatActor, ConversationService } from "./conversation.service";
import type { AnswerEvent } from "./answer-stream";
import { startFakeChatServer, type FakeChatServer } from "./testing/fake-chat-server";
import { actorOf, addFakeModel, chatUser, createAssistant, finalAnswer, parsedKnowledgeBase, type ChatUser } from "./testing/support";

/**
 * Conversations through ConversationService on a real server (embedded database, built-in embedding and
 * extractive model, the parse pipeline) and a local OpenAI-compatible model server for what a language model does.
 */

let server: TestServer;
let fake: FakeChatServer;
let owner: ChatUser;
let stranger: ChatUser;
let actor: ChatActor;
let strangerActor: ChatActor;
let fakeModel: string;
let datasetId: string;
let conversations: ConversationService;

const FILES = {
  "tides.txt": "Tides are caused by the gravitational pull of the moon on the oceans. The highest tides of the month are called spring tides.",
  "bread.txt": "Sourdough bread rises slowly because wild yeast ferments the dough overnight.",
};

beforeAll(async () => {
  server = await startTestServer({ MODEL_CACHE_DIR: "/tmp/cairn-model-cache" });
  conversations = server.services.conversations;
  fake = await startFakeChatServer({ paceMs: 2 });
  [owner, stranger] = [await chatUser(server), await chatUser(server)];
  [actor, strangerActor] = [await actorOf(server, owner), await actorOf(server, stranger)];
  fakeModel = await addFakeModel(server, owner, fake);
  ({ datasetId } = await parsedKnowledgeBase(server, owner, Object.entries(FILES).map(([name, data]) => ({ name, data }))));
}, 240_000);

afterAll(async () => {
  await server?.close();
  await fake?.close();
});

beforeEach(() => {
  fake.requests.length = 0;
  fake.paceMs = 2;
  fake.reply = (messages) => `You asked: ${messages.filter((m) => m.role === "user").at(-1)?.content ?? ""}`;
});

async function askAndWait(assistant: ChatAssistant, question: string, variables?: Record<string, unknown>, conversationId?: string) {
  const id = conversationId ?? (await conversations.create(actor, assistant.id)).id;
  const asked = await conversations.ask(actor, id, { question, variables });
  await asked.finished;
  return { conversationId: id, asked, answer: await finalAnswer(server, asked.answer.id) };
}

const systemOf = (request: { body: Record<string, any> }): string => request.body.messages.find((m: { role: string }) => m.role === "system")?.content ?? ""; // eslint-disable-line @typescript-eslint/no-explicit-any
const chatRequests = () => fake.requests.filter((r) => r.path.endsWith("/chat/completions"));

describe("a conversation", () => {
  it("opens with the assistant's opener, and returns the question and a searching answer at once", async () => {
    const assistant = await createAssistant(server, owner, { kbIds: [datasetId], prompt: { prologue: "Hello, ask me about tides." } });
    const conversation = await conversations.create(actor, assistant.id);
    expect(conversation.name).toBe("New conversation");
    const messages = (await conversations.messagesOf([conversation.id])).get(conversation.id)!;
    expect(messages.map((m) => [m.role, m.content, m.status])).toEqual([["assistant", "Hello, ask me about tides.", "done"]]);

    const asked = await conversations.ask(actor, conversation.id, { question: "What causes tides?" });
    expect(asked.question).toMatchObject({ role: "user", content: "What causes tides?", status: "done", position: 1 });
    expect(asked.answer).toMatchObject({ role: "assistant", content: "", status: "searching", position: 2 });
    await asked.finished;
    expect((await conversations.get(actor, conversation.id)).name).toBe("What causes tides?");
  });

  it("answers with the built-in model, citing the chunk it quotes; the reference lists it, usage and timings are kept", async () => {
    const assistant = await createAssistant(server, owner, { kbIds: [datasetId] });
    const { answer } = await askAndWait(assistant, "What causes tides?");
    expect(answer.status).toBe("done");
    expect(answer.content).toMatch(/gravitational pull of the moon/);
    const cited = [...String(answer.content).matchAll(/\[ID:(\d+)\]/g)].map((m) => Number(m[1]));
    expect(cited.length).toBeGreaterThan(0);
    for (const n of cited) expect(answer.reference.chunks[n].content).toMatch(/gravitational/);
    expect(answer.reference.doc_aggs).toEqual([expect.objectContaining({ doc_name: "tides.txt", count: expect.any(Number) })]);
    expect(answer.prompt).toContain("### Query:\nWhat causes tides?");
    expect(answer.completion_tokens).toBeGreaterThan(0);
    expect(answer.prompt_tokens).toBeGreaterThan(0);
    expect(answer.first_token_ms).not.toBeNull();
    expect(answer.duration_ms).not.toBeNull();
    expect(answer.seq).toBeGreaterThan(1);
  });

  it("assembles the system prompt: knowledge blocks per chunk, citation guide, the request's variables, blanks for missing optional ones", async () => {
    const assistant = await createAssistant(server, owner, {
      kbIds: [datasetId],
      llmId: fakeModel,
      prompt: {
        system: "You answer for {company} in a {tone} tone.\nHere is the knowledge base:\n{knowledge}\nThe above is the knowledge base.",
        parameters: [
          { key: "knowledge", optional: false },
          { key: "company", optional: false },
          { key: "tone", optional: true },
        ],
        refine_multiturn: false,
      },
      llmSetting: { temperature: 0.3, top_p: 0.6, presence_penalty: 0.1, frequency_penalty: 0.2, max_tokens: 77 },
    });
    const { answer } = await askAndWait(assistant, "What causes tides?", { company: "Acme" });
    expect(answer.status).toBe("done");
    const [request] = chatRequests();
    const system = systemOf(request);
    expect(system).toContain("You answer for Acme in a   tone.");
    expect(system).toMatch(/ID: 0\n├── Title: tides\.txt\n└── Content:\n.*gravitational pull/);
    expect(system).toContain("[ID:i]");
    expect(system).not.toContain("{knowledge}");
    expect(request.body.messages.at(-1)).toEqual({ role: "user", content: "What causes tides?" });
    expect(request.body).toMatchObject({ temperature: 0.3, top_p: 0.6, presence_penalty: 0.1, frequency_penalty: 0.2, max_tokens: 77 });
  });

  it("stores an answer whose model says U+0000, which the database's text cannot hold, and the answers written beside it", async () => {
    const assistant = await createAssistant(server, owner, { kbIds: [datasetId], llmId: fakeModel });
    fake.paceMs = 40;
    fake.reply = (messages) => (messages.at(-1)?.content.includes("bytes") ? "raw \u0000 bytes" : "the moon pulls the oceans");
    const [hostile, plain] = await Promise.all([askAndWait(assistant, "What bytes do tides have?"), askAndWait(assistant, "What causes tides?")]);
    expect(hostile.answer).toMatchObject({ status: "done", content: "raw \uFFFD bytes" });
    expect(plain.answer).toMatchObject({ status: "done", content: expect.stringMatching(/^the moon pulls the oceans/) });
  });

  it("stores questions asked at once — in several conversations, and two in one — each after its own conversation's turns", async () => {
    const assistant = await createAssistant(server, owner, { kbIds: [datasetId], llmId: fakeModel });
    const first = await askAndWait(assistant, "What causes tides?");
    const others = await Promise.all([0, 1, 2, 3, 4].map(async () => (await conversations.create(actor, assistant.id)).id));
    fake.requests.length = 0;
    const asked = await Promise.all([
      conversations.ask(actor, first.conversationId, { question: "What are spring tides?" }),
      conversations.ask(actor, first.conversationId, { question: "Why does the moon cause tides?" }),
      ...others.map((id, i) => conversations.ask(actor, id, { question: `What causes tides, question ${i}?` })),
    ]);
    await Promise.all(asked.map((a) => a.finished));

    const stored = await conversations.messagesOf([first.conversationId, ...others]);
    const questionsOf = (id: string) => stored.get(id)!.filter((m) => m.role === "user").map((m) => m.content);
    const firstRows = stored.get(first.conversationId)!;
    expect(firstRows.map((m) => m.position)).toEqual(firstRows.map((_, i) => firstRows[0].position + i));
    expect(questionsOf(first.conversationId).sort()).toEqual(["What are spring tides?", "What causes tides?", "Why does the moon cause tides?"]);
    others.forEach((id, i) => expect(questionsOf(id)).toEqual([`What causes tides, question ${i}?`]));
    // Each answer's model saw its own conversation's questions only, its own last.
    expect(chatRequests()).toHaveLength(asked.length);
    for (const request of chatRequests()) {
      const users: string[] = request.body.messages.filter((m: { role: string }) => m.role === "user").map((m: { content: string }) => m.content);
      const conversation = [first.conversationId, ...others].find((id) => questionsOf(id).includes(users.at(-1)!))!;
      expect(questionsOf(conversation)).toEqual(expect.arrayContaining(users));
    }
    expect(asked.map((a) => a.answer.status)).toEqual(asked.map(() => "searching"));
  });

  it("refuses a question without a required variable, with RAGFlow's message, and stores nothing", async () => {
    const assistant = await createAssistant(server, owner, {
      kbIds: [datasetId],
      llmId: fakeModel,
      prompt: { system: "For {company}: {knowledge}", parameters: [{ key: "knowledge", optional: false }, { key: "company", optional: false }] },
    });
    const conversation = await conversations.create(actor, assistant.id);
    const refused = await conversations.ask(actor, conversation.id, { question: "What causes tides?" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).message).toBe("Miss parameter: company");
    expect((await conversations.messagesOf([conversation.id])).get(conversation.id)).toHaveLength(1);
    expect(chatRequests()).toHaveLength(0);
  });

  it("gives the empty response without calling the model when nothing is retrieved", async () => {
    const assistant = await createAssistant(server, owner, { kbIds: [datasetId], llmId: fakeModel, prompt: { empty_response: "Nothing on that, sorry." } });
    const { answer } = await askAndWait(assistant, "quantum chromodynamics lattice");
    expect(answer).toMatchObject({ status: "done", content: "Nothing on that, sorry." });
    expect(answer.reference).toEqual({ total: 0, chunks: [], doc_aggs: [] });
    expect(chatRequests()).toHaveLength(0);
  });

  it("retrieves only from the documents the assistant's manual metadata filter lets through, even within a request's own selection", async () => {
    await server.platform.db.query(`UPDATE document SET meta_fields = CASE name WHEN 'tides.txt' THEN '{"topic": "Sea"}'::jsonb ELSE '{"topic": "kitchen"}'::jsonb END WHERE knowledge_base_id = $1`, [datasetId]);
    const seaOnly = { method: "manual", manual: [{ key: "topic", op: "=", value: "sea" }], logic: "and" };
    const filtered = await createAssistant(server, owner, { kbIds: [datasetId], metaDataFilter: seaOnly, prompt: { empty_response: "Nothing on that, sorry." } });
    expect((await askAndWait(filtered, "What causes tides?")).answer.content).toMatch(/gravitational pull of the moon/);
    expect((await askAndWait(filtered, "Why does sourdough bread rise slowly?")).answer).toMatchObject({ content: "Nothing on that, sorry.", reference: { total: 0, chunks: [] } });

    const [bread] = await server.platform.db.query(`SELECT id FROM document WHERE knowledge_base_id = $1 AND name = 'bread.txt'`, [datasetId]);
    const conversation = await conversations.create(actor, filtered.id);
    const asked = await conversations.ask(actor, conversation.id, { question: "What causes tides?", documentIds: [bread.id] });
    await asked.finished;
    expect((await finalAnswer(server, asked.answer.id)).content).toBe("Nothing on that, sorry.");

    const unfiltered = await createAssistant(server, owner, { kbIds: [datasetId], metaDataFilter: { method: "auto" } });
    expect((await askAndWait(unfiltered, "Why does sourdough bread rise slowly?")).answer.content).toMatch(/wild yeast/);
  });

  it("asks the model anyway when nothing is retrieved and no empty response is set", async () => {
    const assistant = await createAssistant(server, owner, { kbIds: [datasetId], llmId: fakeModel, prompt: { empty_response: "" } });
    fake.reply = () => "I do not know.";
    const { answer } = await askAndWait(assistant, "quantum chromodynamics lattice");
    expect(answer).toMatchObject({ status: "done", content: "I do not know." });
    expect(chatRequests()).toHaveLength(1);
  });

  it("without knowledge bases just chats with the system prompt", async () => {
    const assistant = await createAssistant(server, owner, { llmId: fakeModel, prompt: { system: "You are a pirate.", parameters: [] } });
    fake.reply = () => "Arr, ahoy!";
    const { answer } = await askAndWait(assistant, "Hello there");
    expect(answer).toMatchObject({ status: "done", content: "Arr, ahoy!", reference: null, prompt: "" });
    expect(systemOf(chatRequests()[0])).toBe("You are a pirate.");
  });

  it("drops the default prompt's knowledge passage when the assistant has no knowledge base", async () => {
    const assistant = await createAssistant(server, owner, { llmId: fakeModel });
    await askAndWait(assistant, "Hello");
    const system = systemOf(chatRequests()[0]);
    expect(system).not.toContain("{knowledge}");
    expect(system).not.toContain("Here is the knowledge base");
  });

  it("self-RAG: hits judged irrelevant are retrieved again once, with the model's rewritten question", async () => {
    const assistant = await createAssistant(server, owner, { kbIds: [datasetId], llmId: fakeModel, prompt: { self_rag: true, refine_multiturn: false } });
    fake.reply = (messages) => {
      const text = messages.map((m) => m.content).join("\n");
      if (text.includes("grader assessing the relevance")) return "no";
      if (text.includes("query expansion")) return "gravitational pull of the moon on the oceans";
      return "Because of the moon [ID:0].";
    };
    const { answer } = await askAndWait(assistant, "Why does sourdough bread rise?");
    const prompts = chatRequests().map((r) => r.body.messages.map((m: { content: string }) => m.content).join("\n"));
    expect(prompts.filter((p) => p.includes("grader assessing"))).toHaveLength(1);
    expect(prompts.filter((p) => p.includes("query expansion"))).toHaveLength(1);
    expect(answer.prompt).toContain("Self-RAG: the hits were judged not relevant; retrieved again with: gravitational pull of the moon on the oceans");
    expect(answer.reference.chunks[0].document_name).toBe("tides.txt");
    expect(answer.content).toBe("Because of the moon [ID:0].");
  });

  it("self-RAG with the built-in model judges lexically and keeps relevant hits", async () => {
    const assistant = await createAssistant(server, owner, { kbIds: [datasetId], prompt: { self_rag: true } });
    const { answer } = await askAndWait(assistant, "What causes tides?");
    expect(answer.prompt).toContain("Self-RAG: the hits were judged relevant.");
  });

  it("multi-turn optimisation: a language model rewrites the follow-up; the built-in model joins the earlier turns' key terms", async () => {
    const llm = await createAssistant(server, owner, { kbIds: [datasetId], llmId: fakeModel });
    fake.reply = (messages) => (messages.some((m) => m.content.includes("stand-alone question")) ? "When are the tides of the ocean highest?" : "At spring tides [ID:0].");
    const first = await askAndWait(llm, "What causes tides?");
    const second = await askAndWait(llm, "And when are they highest?", undefined, first.conversationId);
    expect(second.answer.prompt).toContain("Multi-turn optimisation: When are the tides of the ocean highest?");
    const lastChat = chatRequests().at(-1)!;
    // The model sees the conversation: the earlier question and answer, then the new question.
    expect(lastChat.body.messages.slice(1).map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "user"]);

    const builtin = await createAssistant(server, owner, { kbIds: [datasetId] });
    const one = await askAndWait(builtin, "What causes tides?");
    const two = await askAndWait(builtin, "and the highest?", undefined, one.conversationId);
    expect(two.answer.prompt).toMatch(/Multi-turn optimisation \(built-in model, lexical[^)]*\): and the highest\? .*tides/);
  });

  it("keyword extraction adds the question's keywords to the retrieval query", async () => {
    const assistant = await createAssistant(server, owner, { kbIds: [datasetId], prompt: { keyword: true, refine_multiturn: false } });
    const { answer } = await askAndWait(assistant, "What causes tides?");
    expect(answer.prompt).toMatch(/Keywords \(built-in model[^)]*\): causes, tides/);
  });
});

describe("follow-ups and cross-language questions", () => {
  const HANDBOOK = [
    "# Staff handbook",
    "## Annual leave",
    "Employees get 25 days of annual leave per year. Up to five unused days can be carried over to the next year.",
    "## Travel expenses",
    "Train tickets and hotel nights on business trips are reimbursed within 30 days.",
    "## Remote work",
    "Staff may work from home up to three days a week with their manager's approval.",
  ].join("\n\n");
  let handbookId: string;

  beforeAll(async () => {
    ({ datasetId: handbookId } = await parsedKnowledgeBase(server, owner, [
      { name: "handbook.md", data: HANDBOOK },
      { name: "潮汐.txt", data: "潮汐是由月球的引力引起的。每月最大的潮汐叫做大潮。" },
    ]));
  }, 120_000);

  const chunkIds = (answer: Record<string, any>) => answer.reference.chunks.map((c: { id: string }) => c.id); // eslint-disable-line @typescript-eslint/no-explicit-any

  it("a question that stands alone, fourth in a conversation, retrieves exactly as when asked alone; a pronoun question uses the turn before", async () => {
    const assistant = await createAssistant(server, owner, { kbIds: [handbookId] });
    const alone = await askAndWait(assistant, "Can I work from home?");
    expect(alone.answer.content).toMatch(/three days a week/);

    const first = await askAndWait(assistant, "How many days of annual leave do employees get?");
    const id = first.conversationId;
    const second = await askAndWait(assistant, "Can they carry them over?", undefined, id);
    expect(second.answer.prompt).toMatch(/Multi-turn optimisation \(built-in model, lexical[^)]*\): Can they carry them over\? .*annual leave/);
    expect(second.answer.content).toMatch(/carried over/);
    await askAndWait(assistant, "Which train tickets are reimbursed?", undefined, id);
    const fourth = await askAndWait(assistant, "Can I work from home?", undefined, id);
    expect(fourth.answer.prompt).toContain("the question stands alone");
    expect(fourth.answer.prompt).not.toContain("### Retrieval query");
    expect(chunkIds(fourth.answer)).toEqual(chunkIds(alone.answer));
    expect(fourth.answer.content).toBe(alone.answer.content);
  });

  it("a language model rewrites only a question that refers back", async () => {
    const assistant = await createAssistant(server, owner, { kbIds: [handbookId], llmId: fakeModel });
    fake.reply = (messages) => (messages.some((m) => m.content.includes("stand-alone question")) ? "How many unused days of annual leave can be carried over?" : "Five [ID:0].");
    const first = await askAndWait(assistant, "How many days of annual leave do employees get?");
    await askAndWait(assistant, "Can I work from home?", undefined, first.conversationId);
    const rewrites = () => chatRequests().filter((r) => r.body.messages.some((m: { content: string }) => m.content.includes("stand-alone question")));
    expect(rewrites()).toHaveLength(0);
    const third = await askAndWait(assistant, "And how many of them can be carried over?", undefined, first.conversationId);
    expect(rewrites()).toHaveLength(1);
    expect(third.answer.prompt).toContain("Multi-turn optimisation: How many unused days of annual leave can be carried over?");
  });

  const translator = (translations: Record<string, string>) => (messages: { role: string; content: string }[]) => {
    if (!messages.some((m) => m.content.includes("multilingual translator"))) return "Answer [ID:0].";
    const asked = messages.at(-1)!.content;
    return Object.entries(translations).find(([question]) => asked.includes(question))?.[1] ?? "**ERROR**";
  };

  it("cross-language: a Chinese question finds English chunks, and an English question Chinese ones, through the chat model's translation", async () => {
    fake.reply = translator({ "员工可以在家办公吗？": "Can staff work from home?", "What causes the tides?": "潮汐是由什么引起的？" });
    const plain = await createAssistant(server, owner, { kbIds: [handbookId], llmId: fakeModel });
    expect((await askAndWait(plain, "员工可以在家办公吗？")).answer.reference.chunks).toEqual([]);

    const crossing = await createAssistant(server, owner, { kbIds: [handbookId], llmId: fakeModel, prompt: { cross_languages: ["English", "Chinese"] } });
    const chinese = await askAndWait(crossing, "员工可以在家办公吗？");
    expect(chinese.answer.reference.chunks[0].content).toMatch(/work from home/);
    expect(chinese.answer.prompt).toContain("Cross-language retrieval (English, Chinese): Can staff work from home?");
    const translation = chatRequests().find((r) => r.body.messages.some((m: { content: string }) => m.content.includes("multilingual translator")))!;
    expect(translation.body.messages.at(-1).content).toContain("**Target Languages:** English, Chinese");

    const english = await askAndWait(crossing, "What causes the tides?");
    expect(english.answer.reference.chunks[0].content).toMatch(/月球的引力/);
  });

  it("cross-language with the built-in model says plainly that it cannot translate, and searches the question as written", async () => {
    const assistant = await createAssistant(server, owner, { kbIds: [handbookId], prompt: { cross_languages: ["English"] } });
    const { answer } = await askAndWait(assistant, "Can I work from home?");
    expect(answer.prompt).toContain("Cross-language retrieval (English) is not available with the built-in extractive model: it cannot translate.");
    expect(answer.content).toMatch(/three days a week/);
  });

  it("the retrieval API and the testing page translate with the tenant's default chat model, or say that the built-in one cannot", async () => {
    const retrieve = () =>
      server.rest("POST", "/api/v1/retrieval", { token: owner.key, body: { question: "员工可以在家办公吗？", dataset_ids: [handbookId], cross_languages: ["English"] } });
    const testRetrieval = async () =>
      (
        await server.graphql<{ retrieve: { total: number; hits: { chunk: { content: string } }[]; crossLanguage: { translated: boolean; query: string } | null } }>(
          `query ($input: RetrievalInput!) { retrieve(input: $input) { total hits { chunk { content } } crossLanguage { translated query } } }`,
          { input: { question: "员工可以在家办公吗？", knowledgeBaseIds: [handbookId], crossLanguages: ["English"] } },
          owner.token,
        )
      ).data!.retrieve;
    const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const builtin = await retrieve();
      expect(builtin.body).toMatchObject({ code: 0, data: { total: 0, chunks: [] } });
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("Cross-language retrieval (English) is not available with the built-in extractive model"));
      expect(await testRetrieval()).toMatchObject({ total: 0, crossLanguage: { translated: false, query: "员工可以在家办公吗？" } });
    } finally {
      warn.mockRestore();
    }
    const setDefaultChat = (llmId: string) =>
      server.rest("POST", "/v1/user/set_tenant_info", {
        authorization: owner.token,
        body: { tenant_id: owner.tenantId, llm_id: llmId, embd_id: "BAAI/bge-small-en-v1.5@Builtin", img2txt_id: "", asr_id: "" },
      });
    await setDefaultChat(fakeModel);
    try {
      fake.reply = translator({ "员工可以在家办公吗？": "Can staff work from home?" });
      const translated = await retrieve();
      expect(translated.body.code).toBe(0);
      expect(translated.body.data.chunks[0].content).toMatch(/work from home/);
      const tested = await testRetrieval();
      expect(tested.crossLanguage).toEqual({ translated: true, query: "Can staff work from home?" });
      expect(tested.hits[0].chunk.content).toMatch(/work from home/);
    } finally {
      await setDefaultChat("");
    }
  });
});

describe("subscribing to an answer being written", () => {
  it("is checked against the answer's conversation, as a finished answer is", async () => {
    const assistant = await createAssistant(server, owner, { llmId: fakeModel, prompt: { system: "Talk.", parameters: [] } });
    const [pace, reply] = [fake.paceMs, fake.reply];
    fake.paceMs = 10;
    const words = Array.from({ length: 30 }, (_, i) => `word${i}`).join(" ");
    fake.reply = () => words;
    try {
      const conversation = await conversations.create(actor, assistant.id);
      const asked = await conversations.ask(actor, conversation.id, { question: "Talk a little" });
      await expect(conversations.answerStream(strangerActor, asked.answer.id)).rejects.toMatchObject({ kind: "NOT_FOUND", messageKey: "errors.conversation.messageNotFound" });
      const events = await conversations.answerStream(actor, asked.answer.id);
      let last: AnswerEvent | undefined;
      for await (const event of events) last = event;
      expect(last).toMatchObject({ status: "done", content: words });
    } finally {
      [fake.paceMs, fake.reply] = [pace, reply];
    }
  });
});

describe("stopping, regenerating and rating", () => {
  it("stop keeps what was written and marks the answer stopped; the model call is cancelled", async () => {
    const assistant = await createAssistant(server, owner, { llmId: fakeModel, prompt: { system: "Talk.", parameters: [] } });
    fake.paceMs = 30;
    const words = Array.from({ length: 200 }, (_, i) => `word${i}`).join(" ");
    fake.reply = () => words;
    const conversation = await conversations.create(actor, assistant.id);
    const asked = await conversations.ask(actor, conversation.id, { question: "Talk a lot" });
    for (;;) {
      const rows = await server.platform.db.query(`SELECT content FROM chat_message WHERE id = $1`, [asked.answer.id]);
      if (rows[0].content.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    const stopped = await conversations.stop(actor, asked.answer.id);
    expect(stopped.status).toBe("stopped");
    expect(stopped.content.length).toBeGreaterThan(0);
    expect(words.startsWith(stopped.content)).toBe(true);
    expect(stopped.content.length).toBeLessThan(words.length);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await conversations.message(actor, asked.answer.id)).content).toBe(stopped.content);
  });

  it("regenerate replaces the answer with a new one to the same question", async () => {
    const assistant = await createAssistant(server, owner, { llmId: fakeModel, prompt: { system: "Talk.", parameters: [] } });
    let n = 0;
    fake.reply = () => `answer number ${++n}`;
    const { asked, conversationId } = await askAndWait(assistant, "Say something");
    const again = await conversations.regenerate(actor, asked.answer.id);
    expect(again.id).not.toBe(asked.answer.id);
    expect(again.position).toBe(asked.answer.position);
    const done = await finalAnswer(server, again.id);
    expect(done.content).toBe("answer number 2");
    const messages = (await conversations.messagesOf([conversationId])).get(conversationId)!;
    expect(messages.map((m) => m.content)).toEqual([expect.any(String), "Say something", "answer number 2"]);
    expect(chatRequests().at(-1)!.body.messages.at(-1)).toEqual({ role: "user", content: "Say something" });
  });

  it("rates an answer up or down with a comment, clears it, and refuses anything else", async () => {
    const assistant = await createAssistant(server, owner, { llmId: fakeModel, prompt: { system: "Talk.", parameters: [] } });
    const { asked } = await askAndWait(assistant, "Rate me");
    expect((await conversations.rate(actor, asked.answer.id, "down", " too short ")).feedback).toEqual({ thumb: "down", comment: "too short" });
    expect((await conversations.rate(actor, asked.answer.id, "up")).feedback).toEqual({ thumb: "up", comment: null });
    expect((await conversations.rate(actor, asked.answer.id, null)).feedback).toBeNull();
    await expect(conversations.rate(actor, asked.answer.id, "sideways")).rejects.toMatchObject({ messageKey: "errors.conversation.thumbInvalid" });
    await expect(conversations.rate(actor, asked.question.id, "up")).rejects.toMatchObject({ messageKey: "errors.conversation.notAnAnswer" });
  });
});

describe("isolation", () => {
  it("another tenant sees nothing and can change nothing", async () => {
    const assistant = await createAssistant(server, owner, { llmId: fakeModel, prompt: { system: "Talk.", parameters: [] } });
    const { asked, conversationId } = await askAndWait(assistant, "Private question");
    const notFound = { kind: "NOT_FOUND" };
    await expect(conversations.list(strangerActor, assistant.id)).rejects.toMatchObject(notFound);
    await expect(conversations.create(strangerActor, assistant.id)).rejects.toMatchObject(notFound);
    await expect(conversations.get(strangerActor, conversationId)).rejects.toMatchObject(notFound);
    await expect(conversations.rename(strangerActor, conversationId, "mine")).rejects.toMatchObject(notFound);
    await expect(conversations.ask(strangerActor, conversationId, { question: "hi" })).rejects.toMatchObject(notFound);
    await expect(conversations.stop(strangerActor, asked.answer.id)).rejects.toMatchObject(notFound);
    await expect(conversations.regenerate(strangerActor, asked.answer.id)).rejects.toMatchObject(notFound);
    await expect(conversations.rate(strangerActor, asked.answer.id, "up")).rejects.toMatchObject(notFound);
    await expect(conversations.answerStream(strangerActor, asked.answer.id)).rejects.toMatchObject(notFound);
    expect(await conversations.delete(strangerActor, [conversationId])).toBe(0);
    const after = (await conversations.messagesOf([conversationId])).get(conversationId)!;
    expect(after.map((m) => m.content)).toEqual([expect.any(String), "Private question", "You asked: Private question"]);
    expect(after.every((m) => m.feedback === null)).toBe(true);
    expect((await conversations.get(actor, conversationId)).name).toBe("Private question");
  });

  it("a share page's visitor reaches only its assistant and its own conversations", async () => {
    const shared = await createAssistant(server, owner, { llmId: fakeModel, prompt: { system: "Talk.", parameters: [] } });
    const other = await createAssistant(server, owner, { llmId: fakeModel, prompt: { system: "Talk.", parameters: [] } });
    const principal: SharePrincipal = { kind: "share", tenantId: owner.tenantId, assistantId: shared.id, shareId: "token" };
    const visitor: ChatActor = { principal, visitorId: "visitor-1" };
    const otherVisitor: ChatActor = { principal, visitorId: "visitor-2" };
    const mine = await conversations.create(visitor, shared.id);
    expect(mine).toMatchObject({ source: "share", userId: "visitor-1" });
    const asked = await conversations.ask(visitor, mine.id, { question: "hi" });
    await asked.finished;
    expect((await conversations.list(visitor, shared.id)).map((c) => c.id)).toEqual([mine.id]);
    expect(await conversations.list(otherVisitor, shared.id)).toEqual([]);
    await expect(conversations.get(otherVisitor, mine.id)).rejects.toMatchObject({ kind: "NOT_FOUND" });
    await expect(conversations.create(visitor, other.id)).rejects.toMatchObject({ kind: "NOT_FOUND" });
    await expect(conversations.create({ principal }, shared.id)).rejects.toMatchObject({ messageKey: "errors.conversation.visitorRequired" });
    // Members' conversations are not the visitor's, and visitors' are not in the members' list.
    const members = await conversations.create(actor, shared.id);
    await expect(conversations.get(visitor, members.id)).rejects.toMatchObject({ kind: "NOT_FOUND" });
    expect((await conversations.list(actor, shared.id)).map((c) => c.id)).toEqual([members.id]);
  });
});

describe("a server that stopped mid-answer", () => {
  it("leaves no answer streaming: at start-up such answers are marked failed with the reason", async () => {
    const assistant = await createAssistant(server, owner, { llmId: fakeModel, prompt: { system: "Talk.", parameters: [] } });
    const conversation = await conversations.create(actor, assistant.id);
    const id = newId();
    await server.platform.db.query(
      `INSERT INTO chat_message (id, conversation_id, position, role, content, status, seq) VALUES ($1, $2, 5, 'assistant', 'half an ans', 'streaming', 3)`,
      [id, conversation.id],
    );
    expect(await conversations.closeInterruptedAnswers()).toBeGreaterThanOrEqual(1);
    const [row] = await server.platform.db.query(`SELECT status, error, content FROM chat_message WHERE id = $1`, [id]);
    expect(row).toEqual({ status: "failed", error: "The server stopped while this answer was being written.", content: "half an ans" });
  });
});
