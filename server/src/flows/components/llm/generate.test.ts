import { CITATION_GUIDE } from "../../../chat/answer/prompt";
import { builtin } from "../../../models/builtin/builtin.provider";
import { expectTranslatedEverywhere } from "../../../models/testing/translated";
import { validate } from "../../../platform/param-spec";
import { runComponent, testPorts } from "../../testing/run-component";
import { startScriptedChatServer, type ScriptedChatServer } from "../../testing/scripted-chat-server";
import { generateComponent } from "./generate";
import { fakeHit, retrievalOutput } from "./testing-hits";

/** Generate against a local OpenAI-compatible server that answers as each test scripts, and against the built-in model. */

let server: ScriptedChatServer;
beforeAll(async () => {
  server = await startScriptedChatServer(() => "Fine.");
});
afterAll(() => server.close());

const ports = () => testPorts({ chat: server.model() });
const lastRequest = () => server.requests().at(-1)!;

const TIDES = fakeHit("c-tides", "Tides are caused by the gravitational pull of the moon on the oceans.", "tides.txt");
const BREAD = fakeHit("c-bread", "Sourdough bread rises slowly because wild yeast ferments the dough overnight.", "bread.txt");

describe("Generate", () => {
  test("fills {key} from its parameters, sends only the model settings set above 0, and the latest messages of its window", async () => {
    server.script = () => "Bonjour.";
    const history = ["one", "two", "three", "four", "five"].map((content, i) => ({ role: i % 2 === 0 ? ("user" as const) : ("assistant" as const), content }));
    const { output } = await runComponent(generateComponent, {
      params: {
        prompt: "Translate into {lang}: {text}. Asked: {sys.query}",
        parameters: [
          { key: "lang", component_id: "begin@lang" },
          { key: "text", component_id: "Begin:text" },
        ],
        temperature: 0.5,
        top_p: 0,
        presence_penalty: null,
        frequency_penalty: 0.7,
        frequencyPenaltyEnabled: false,
        max_tokens: 0,
        message_history_window_size: 2,
      },
      history,
      variables: { "begin@lang": "French", "Begin:text": "good {morning}", "sys.query": "five" },
      ports: ports(),
    });
    expect(output).toEqual({ content: "Bonjour.", spoken: false });
    const { body, messages } = lastRequest();
    expect(messages[0]).toEqual({ role: "system", content: "Translate into French: good {morning}. Asked: five" });
    // A window of 2: the latest message and the two before it.
    expect(messages.slice(1).map((m) => m.content)).toEqual(["three", "four", "five"]);
    expect(body.temperature).toBe(0.5);
    for (const unset of ["top_p", "presence_penalty", "frequency_penalty", "max_tokens"]) expect(body).not.toHaveProperty(unset);
  });

  test("puts the default input at {input} when it has no parameters, and asks with the question when there is no conversation", async () => {
    server.script = () => "Summary.";
    await runComponent(generateComponent, { params: { prompt: "Summarize: {input}" }, input: "A long text.", question: "", ports: ports() });
    expect(lastRequest().messages).toEqual([
      { role: "system", content: "Summarize: A long text." },
      { role: "user", content: "" },
    ]);
  });

  test("gives the retrieved chunks it reads numbered as chat does, repairs the model's citations and returns the reference", async () => {
    const [tides, bread] = [await retrievalOutput([TIDES]), await retrievalOutput([BREAD])];
    const ask = () =>
      runComponent(generateComponent, {
        params: { prompt: "Knowledge:\n{kb}\nMore:\n{more}", parameters: [{ key: "kb", component_id: "Retrieval:a" }, { key: "more", component_id: "Retrieval:b" }] },
        history: [{ role: "user", content: "Why are there tides?" }],
        variables: { "Retrieval:a": tides.content, "Retrieval:b": bread.content },
        retrievals: [tides, bread],
        ports: ports(),
      });
    server.script = () => "The moon pulls the oceans (ID: 0). Bread is off topic [ID:7].";
    const { output } = await ask();
    const system = lastRequest().messages[0].content!;
    expect(system.startsWith(CITATION_GUIDE)).toBe(true);
    expect(system).toContain(`ID: 0\n├── Title: tides.txt\n└── Content:\n${TIDES.chunk.content}`);
    expect(system).toContain(`ID: 1\n├── Title: bread.txt\n└── Content:\n${BREAD.chunk.content}`);
    // "(ID: 0)" repaired; [ID:7] names no chunk and is dropped.
    expect(output.content).toBe("The moon pulls the oceans [ID:0]. Bread is off topic .");
    expect(output.reference?.chunks.map((c) => [c.id, c.document_name])).toEqual([
      ["c-tides", "tides.txt"],
      ["c-bread", "bread.txt"],
    ]);
    expect(output.reference?.doc_aggs).toEqual([{ doc_name: "tides.txt", doc_id: "doc-tides.txt", count: 1 }]);

    // An answer that cites nothing gets the chunk each sentence repeats.
    server.script = () => "Sourdough bread rises slowly because wild yeast ferments the dough overnight.";
    expect((await ask()).output.content).toBe("Sourdough bread rises slowly because wild yeast ferments the dough overnight. [ID:1]");
  });

  test("numbers the chunks also when the retrieved text reaches it joined another way (RAGFlow's \"  - \" list)", async () => {
    const found = await retrievalOutput([TIDES, BREAD]);
    server.script = () => "Tides [ID:0].";
    const listed = `  - ${TIDES.chunk.content}\n  - ${BREAD.chunk.content}`;
    const { output } = await runComponent(generateComponent, { params: { prompt: "K:\n{input}" }, input: listed, retrievals: [found], ports: ports() });
    expect(lastRequest().messages[0].content).toContain(`K:\n  - \nID: 0\n├── Title: tides.txt\n└── Content:\n${TIDES.chunk.content}\n  - \nID: 1\n├── Title: bread.txt`);
    expect(output.reference?.chunks).toHaveLength(2);
  });

  test("without cite, the retrieved text goes in as it is and the answer has no reference", async () => {
    const tides = await retrievalOutput([TIDES]);
    server.script = () => "The moon (ID: 0).";
    const { output } = await runComponent(generateComponent, { params: { prompt: "K: {input}", cite: false }, input: tides.content, retrievals: [tides], ports: ports() });
    expect(lastRequest().messages[0].content).toBe(`K: ${TIDES.chunk.content}`);
    expect(output).toEqual({ content: "The moon (ID: 0).", spoken: false });
  });

  test("streams its answer while it speaks to the user, and counts the tokens the model reports", async () => {
    server.script = () => "One two three.";
    const run = await runComponent(generateComponent, { params: { prompt: "Answer." }, history: [{ role: "user", content: "Count" }], speaking: true, ports: ports() });
    expect(run.said.length).toBeGreaterThan(1);
    expect(run.said.join("")).toBe("One two three.");
    expect(run.output).toMatchObject({ content: "One two three.", spoken: true });
    expect(run.tokens).toBe(47);
  });

  test("answers with the retrievals' empty response, without a model call, when they found nothing and it has nothing else to read", async () => {
    const before = server.requests().length;
    const empty = await retrievalOutput([], "Nothing in the DDL!");
    const run = await runComponent(generateComponent, { params: { prompt: "Knowledge: {input}" }, input: empty.content, retrievals: [empty], speaking: true, ports: ports() });
    expect(run.output).toEqual({ content: "Nothing in the DDL!", spoken: true });
    expect(run.said).toEqual(["Nothing in the DDL!"]);

    const silent = await retrievalOutput([]);
    const plain = await runComponent(generateComponent, { params: { prompt: "Knowledge: {input}" }, input: "", retrievals: [silent], ports: ports() });
    expect(plain.output.content).toBe("Nothing found in knowledgebase!");
    expectTranslatedEverywhere("flow.components.Generate.nothingFound", {});
    expect(server.requests().length).toBe(before);
  });

  test("fails with the provider's error when the model refuses", async () => {
    server.script = () => ({ status: 401, error: "Incorrect API key provided" });
    await expect(runComponent(generateComponent, { params: { prompt: "Hi" }, history: [{ role: "user", content: "Hi" }], ports: ports() })).rejects.toMatchObject({
      kind: "MODEL_PROVIDER",
    });
  });

  test("refuses prompt variables without a key or a component", () => {
    const errors = validate(generateComponent.params, { parameters: [{ key: "kb", component_id: "Retrieval:a" }, { key: "", component_id: "x" }, "nope"] });
    expect(errors.map((e) => [e.path, e.messageKey])).toEqual([
      ["parameters.1", "flow.components.Generate.errors.parameters"],
      ["parameters.2", "flow.components.Generate.errors.parameters"],
    ]);
  });

  test("with the built-in model (no key), answers over retrieved chunks by quoting them, with citations", async () => {
    const tides = await retrievalOutput([BREAD, TIDES]);
    const { output } = await runComponent(generateComponent, {
      params: { prompt: "Answer from the knowledge base.\nHere is the knowledge base:\n{input}\nThe above is the knowledge base." },
      input: tides.content,
      history: [{ role: "user", content: "What causes the tides?" }],
      retrievals: [tides],
      ports: testPorts({ chat: builtin.create("chat", { modelName: "cairn-extractive", credentials: {} }) }),
    });
    expect(output.content).toContain("gravitational pull of the moon");
    expect(output.content).toContain("[ID:1]");
    expect(output.reference?.doc_aggs).toEqual([{ doc_name: "tides.txt", doc_id: "doc-tides.txt", count: 1 }]);
  });
});
