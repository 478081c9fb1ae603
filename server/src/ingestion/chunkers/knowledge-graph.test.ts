import { englishText, logMessage } from "../parse-log";
import type { ChatMessage, ChatModel } from "../../models/model-types";
import { countTokens } from "../../models/tokens";
import { extractGraphOffline } from "./builtin-graph";
import { extractGraph, parseGraphAnswer, type GraphExtraction } from "./graph-extraction";
import { knowledgeGraphMethod } from "./knowledge-graph";
import { context, doc, p, sentences } from "./test-support";

/** The settings of an extraction with a chat model, recording its progress. */
function extraction(chat: ChatModel, id: string, overrides: Partial<GraphExtraction> = {}): GraphExtraction & { progressed: number[] } {
  const progressed: number[] = [];
  return { chat: { model: chat, id }, entityTypes: ["organization", "person", "location", "event", "time"], language: "English", signal: new AbortController().signal, progress: (done, total) => progressed.push(done / total), progressed, ...overrides };
}

/** A chat model that streams prepared answers in small deltas, one per call, and keeps the prompts. */
class ScriptedChat implements ChatModel {
  prompts: ChatMessage[][] = [];
  constructor(private readonly answers: string[]) {}
  async *stream(messages: ChatMessage[]) {
    this.prompts.push(messages);
    const answer = this.answers[(this.prompts.length - 1) % this.answers.length];
    for (let i = 0; i < answer.length; i += 7) yield { type: "delta" as const, text: answer.slice(i, i + 7) };
    yield { type: "finish" as const, reason: "stop" as const };
  }
}

const firstAnswer = `<think>The text names a person and a city.</think>
\`\`\`json
{"entities":[{"name":"Marie Curie","type":"person","description":"Physicist."},{"name":"Paris","type":"location","description":"Capital of France."}],
 "relations":[{"source":"Marie Curie","target":"Paris","description":"Curie worked in Paris.","keywords":["work"],"weight":8},
              {"source":"Marie Curie","target":"Sorbonne","description":"Not an entity here.","keywords":[],"weight":3}]}
\`\`\`
Hope this helps!`;
const secondAnswer = `{"entities":[{"name":"marie curie","type":"person","description":"Won two Nobel prizes."},{"name":"PARIS","type":"location","description":"Capital of France."}],"relations":[{"source":"paris","target":"Marie Curie","description":"She died near Paris.","keywords":["death"],"weight":2},]}`;

describe("Knowledge Graph", () => {
  it("chunks by about 512 tokens whatever chunk_token_num says, and calls no model while parsing", async () => {
    const document = doc(sentences(40, "laboratory").map((s) => p(s)));
    const ctx = context({ chunk_token_num: 8192 }, { chat: async () => Promise.reject(new Error("a parse must not ask the chat model")) });
    const { chunks } = await knowledgeGraphMethod.chunk(document, ctx);
    expect(chunks).toHaveLength(2);
    for (const chunk of chunks) expect(countTokens(chunk.text)).toBeLessThanOrEqual(512);
  });
});

describe("graph extraction", () => {
  it("merges the model's JSON graphs of every text", async () => {
    const chat = new ScriptedChat([firstAnswer, secondAnswer]);
    const settings = extraction(chat, "gpt-4o@OpenAI", { entityTypes: ["person", "location"] });
    const { graph, notes } = await extractGraph(["First text about the laboratory.", "Second text."], settings);

    expect(chat.prompts).toHaveLength(2);
    expect(chat.prompts[0][0].content).toContain("[person, location]");
    expect(chat.prompts[0][1].content).toContain("First text about the laboratory.");
    expect(graph.entities).toEqual([
      { name: "Marie Curie", type: "person", description: "Physicist.\nWon two Nobel prizes." },
      { name: "Paris", type: "location", description: "Capital of France." },
    ]);
    expect(graph.relations).toEqual([
      { source: "Marie Curie", target: "Paris", description: "Curie worked in Paris.\nShe died near Paris.", keywords: ["work", "death"], weight: 10 },
    ]);
    expect(settings.progressed).toEqual([0.5, 1]);
    expect(notes).toEqual([]);
  });

  it("notes a text whose answer is not JSON and goes on with the others", async () => {
    const chat = new ScriptedChat(["I cannot help with that.", secondAnswer]);
    const { graph, notes } = await extractGraph(["one", "two"], extraction(chat, "small@Ollama"));
    expect(graph.entities.map((e) => e.name)).toEqual(["marie curie", "PARIS"]);
    expect(notes).toEqual([logMessage("parseLog.graphNotJson", { chunk: 1, model: "small@Ollama" })]);
    expect(englishText(notes[0])).toMatch(/Chunk 1: the answer of small@Ollama was not the JSON asked for/);
  });

  it("with the built-in chat model, builds the graph offline from names and shared sentences, and says so", async () => {
    const never: ChatModel = {
      // eslint-disable-next-line require-yield
      async *stream() {
        throw new Error("the built-in model must not be asked for JSON");
      },
    };
    const text =
      "Marie Curie worked at the University of Paris with Pierre Curie. In 1903 Marie Curie and Pierre Curie shared the Nobel Prize. " +
      "Marie Curie was born in Warsaw. 居里夫人于1867年出生在华沙，后来在巴黎大学工作。";
    const { graph, notes } = await extractGraph([text], extraction(never, "cairn-extractive@Builtin"));
    const types = Object.fromEntries(graph.entities.map((e) => [e.name, e.type]));
    expect(types).toMatchObject({ "Marie Curie": "person", "Pierre Curie": "person", "University of Paris": "organization", Warsaw: "location", "1903": "time", 华沙: "location" });
    const couple = graph.relations.find((r) => [r.source, r.target].sort().join("|") === "Marie Curie|Pierre Curie");
    expect(couple?.weight).toBe(2);
    for (const relation of graph.relations) {
      expect(types[relation.source]).toBeDefined();
      expect(types[relation.target]).toBeDefined();
    }
    expect(englishText(notes[0])).toMatch(/built by Cairn's built-in extractor .*not by a language model/);
  });

  it("stops between texts when the task is cancelled", async () => {
    const controller = new AbortController();
    const chat = new ScriptedChat([secondAnswer]);
    const settings = extraction(chat, "gpt-4o@OpenAI", { signal: controller.signal, progress: () => controller.abort(new Error("cancelled by the user")) });
    await expect(extractGraph(["one", "two", "three"], settings)).rejects.toThrow("cancelled by the user");
    expect(chat.prompts).toHaveLength(1);
  });
});

describe("reading a model's graph answer", () => {
  it("returns null when the answer holds no JSON object", () => {
    expect(parseGraphAnswer("Sorry, no entities.")).toBeNull();
    expect(parseGraphAnswer('{"entities": [')).toBeNull();
  });

  it("accepts LightRAG's field names and keywords given as one string", () => {
    const graph = parseGraphAnswer('{"entities":[{"entity_name":"A","entity_type":"PERSON","entity_description":"d"}],"relationships":[{"src_id":"A","tgt_id":"B","description":"x","keywords":"k1, k2","weight":"3"}]}');
    expect(graph).toEqual({
      entities: [{ name: "A", type: "person", description: "d" }],
      relations: [{ source: "A", target: "B", description: "x", keywords: ["k1", "k2"], weight: 3 }],
    });
  });

  it("offline extraction keeps only the configured entity types", () => {
    const graph = extractGraphOffline("Ada Lovelace met Charles Babbage in London in 1833.", ["location"]);
    expect(graph.entities.map((e) => e.name)).toEqual(["London"]);
    expect(graph.relations).toEqual([]);
  });
});
