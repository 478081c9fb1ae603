import { DomainError } from "../platform/errors";
import { componentNamed } from "./components";
import { exportFlow, importFlow } from "./dsl-format";
import { validateFlow } from "./engine/validate";
import { RAGFLOW_MINIMAL_DSL, ragflowFixtureFiles, readRagflowFixture } from "./testing/ragflow-fixtures";
import { runTestTurn } from "./testing/run-flow";

const files = ragflowFixtureFiles();
const read = readRagflowFixture;

const refusal = (json: unknown): string => {
  try {
    importFlow(json);
  } catch (error) {
    if (error instanceof DomainError) return error.messageKey;
    throw error;
  }
  throw new Error("imported");
};

describe("importing RAGFlow v0.14's templates and DSL examples", () => {
  it.each(files)("%s imports with a consistent graph and no run state", (file) => {
    const raw = read(file) as Record<string, unknown>;
    const { dsl, title, notes } = importFlow(raw);
    const ids = Object.keys(dsl.components);
    expect(ids.length).toBeGreaterThan(1);
    if (file.startsWith("templates-")) expect(title).toBe(raw.title);
    for (const [id, component] of Object.entries(dsl.components)) {
      for (const target of component.downstream) expect(dsl.components[target].upstream).toContain(id);
      for (const source of component.upstream) expect(dsl.components[source].downstream).toContain(id);
      expect(component.obj.params).not.toHaveProperty("output");
    }
    expect(new Set(dsl.graph!.nodes.map((node) => node.id))).toEqual(expect.objectContaining(new Set(ids)));
    for (const key of ["history", "messages", "path", "answer", "reference"]) expect(dsl).not.toHaveProperty(key);
    if (!file.startsWith("templates-")) expect(notes.map((n) => n.messageKey)).toContain("flow.import.layoutBuilt");
  });

  it.each(files)("%s passes validation once configured (its knowledge bases chosen), but for components not registered yet", (file) => {
    const { dsl } = importFlow(read(file));
    for (const component of Object.values(dsl.components)) if (component.obj.component_name === "Retrieval") component.obj.params.kb_ids = ["kb-chosen"];
    const unregistered = new Set(Object.values(dsl.components).map((c) => c.obj.component_name).filter((name) => !componentNamed(name)));
    const problems = validateFlow(dsl);
    expect(problems.filter((p) => !(p.messageKey === "flow.errors.unknownComponent" && unregistered.has(String(p.params?.name))))).toEqual([]);
  });

  it.each(files)("%s exports as a RAGFlow DSL that imports again unchanged", (file) => {
    const first = importFlow(read(file));
    const exported = exportFlow({ dsl: first.dsl, title: first.title ?? "Imported", description: first.description });
    expect(exported).toMatchObject({ history: [], messages: [], path: [], reference: [], answer: [], title: first.title ?? "Imported" });
    // Each node carries its component's params as RAGFlow's editor reads them.
    for (const node of (exported.graph as { nodes: { id: string; data: { form: unknown; label: string } }[] }).nodes) {
      if (!first.dsl.components[node.id]) continue; // a note, kept in the drawing only
      expect(node.data).toMatchObject({ label: first.dsl.components[node.id].obj.component_name, form: first.dsl.components[node.id].obj.params });
    }
    const again = importFlow(JSON.parse(JSON.stringify(exported)));
    expect(again.dsl).toEqual(first.dsl);
    expect(again.title).toBe(first.title ?? "Imported");
    expect(again.notes).toEqual([]);
  });

  it("moves `parameters` written beside `params` inside, as RAGFlow's example has them", () => {
    const { dsl } = importFlow(read("dsl_examples/baidu_generate_and_switch.json"));
    expect(dsl.components["generate:0"].obj.params.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ key: "baidu", component_id: "baidu:0" })]));
  });

  it("renames the display names RAGFlow's HR template repeats, so that each is unique", () => {
    const { dsl, notes } = importFlow(read("templates-HR_callout_zh.json"));
    const names = dsl.graph!.nodes.map((node) => node.data?.name);
    expect(new Set(names).size).toBe(names.length);
    expect(notes).toContainEqual({ messageKey: "flow.import.namesRenamed", params: { count: 1 } });
  });

  it("keeps the notes RAGFlow draws without a component, with their text", () => {
    const raw = read("templates-general_chat_bot.json") as { dsl: { graph: { nodes: { id: string; type: string; data: { form?: unknown } }[] } } };
    const notes = raw.dsl.graph.nodes.filter((node) => node.type === "noteNode");
    expect(notes.length).toBeGreaterThan(0);
    const { dsl } = importFlow(raw);
    for (const note of notes) expect(dsl.graph!.nodes.find((node) => node.id === note.id)!.data).toMatchObject({ form: note.data.form });
  });

  it("lays a file without a graph out in columns from Begin", () => {
    const { dsl } = importFlow(read("dsl_examples/retrieval_and_generate.json"));
    const x = (id: string) => dsl.graph!.nodes.find((node) => node.id === id)!.position.x;
    expect(x("begin")).toBeLessThan(x("answer:0"));
    expect(dsl.graph!.edges.length).toBeGreaterThan(0);
  });
});

describe("importing the v0.20+ style", () => {


  it("imports the agents API's minimal DSL (as an object or its JSON text), which answers the user's words and finishes", async () => {
    const { dsl } = importFlow(JSON.stringify(RAGFLOW_MINIMAL_DSL));
    expect(dsl.globals).toEqual(RAGFLOW_MINIMAL_DSL.globals);
    expect(validateFlow(dsl)).toEqual([]);
    const turn = await runTestTurn(dsl, null, { message: "hello" });
    expect(turn).toMatchObject({ status: "finished", answer: "hello" });
  });

  it("reads Begin's inputs written as a map into its list of inputs", () => {
    const { dsl, notes } = importFlow({
      components: { begin: { obj: { component_name: "Begin", params: { mode: "conversational", inputs: { lang: { name: "Language", type: "line", optional: false } } } }, downstream: [], upstream: [] } },
    });
    expect(dsl.components.begin.obj.params.query).toEqual([{ key: "lang", name: "Language", type: "line", optional: false }]);
    expect(notes).toContainEqual({ messageKey: "flow.import.beginInputsConverted" });
  });

  it("reads a template whose dsl is JSON text, and drops a run state with a note", () => {
    const { dsl, title, notes } = importFlow({ id: 1, title: "T", description: "D", canvas_type: "chatbot", dsl: JSON.stringify({ ...RAGFLOW_MINIMAL_DSL, path: [["begin"]] }) });
    expect(title).toBe("T");
    expect(Object.keys(dsl.components)).toEqual(["begin", "message"]);
    expect(notes).toContainEqual({ messageKey: "flow.import.runStateDropped" });
  });
});

describe("refusing what is not a flow", () => {
  it("refuses garbage with a translated error, never a crash", () => {
    expect(refusal("{not json")).toBe("flow.import.notJson");
    expect(refusal([1, 2])).toBe("flow.import.notAFlow");
    expect(refusal(null)).toBe("flow.import.notAFlow");
    expect(refusal({ components: {} })).toBe("flow.import.notAFlow");
    expect(refusal({ components: { x: { obj: {} } } })).toBe("flow.import.badComponent");
    expect(refusal({ components: { x: "Begin" } })).toBe("flow.import.badComponent");
  });

  it("refuses hostile JSON: too deep, too many values, too long", () => {
    let deep: unknown = {};
    for (let i = 0; i < 1000; i++) deep = { a: deep };
    expect(refusal({ components: { begin: { obj: { component_name: "Begin", params: { deep } } } } })).toBe("flow.import.tooDeep");
    expect(refusal({ components: { begin: { obj: { component_name: "Begin", params: { many: new Array(300_000).fill(0) } } } } })).toBe("flow.import.tooLarge");
    expect(refusal(" ".repeat(5_000_001))).toBe("flow.import.tooLarge");
  });
});

test("an export names the node types RAGFlow's editor draws in place of Cairn's editor's own, and keeps RAGFlow's", () => {
  const component = (component_name: string) => ({ obj: { component_name, params: {} }, upstream: [], downstream: [] });
  const dsl = {
    components: { begin: component("Begin"), "Generate:a": component("Generate"), "Note:a": component("Note"), "Baidu:a": component("Baidu") },
    graph: {
      nodes: [
        { id: "begin", type: "component", position: { x: 0, y: 0 }, data: { name: "Begin" } },
        { id: "Generate:a", type: "component", position: { x: 1, y: 0 }, data: { name: "Write" } },
        { id: "Note:a", type: "note", position: { x: 2, y: 0 }, data: { name: "Note" } },
        { id: "Baidu:a", type: "ragNode", position: { x: 3, y: 0 }, data: { name: "Baidu" } },
      ],
      edges: [],
    },
  };
  const exported = exportFlow({ dsl }) as { graph: { nodes: { type: string }[] } };
  expect(exported.graph.nodes.map((node) => node.type)).toEqual(["beginNode", "generateNode", "noteNode", "ragNode"]);
});
