import type { FlowDsl } from "../dsl";
import { SECRET_MASK, SECRET_NEEDED } from "../flow-secrets";
import { sketchFlow } from "../testing/run-flow";
import { validateFlow, type FlowProblem } from "./validate";

const keys = (problems: FlowProblem[]) => problems.map((p) => p.messageKey);
const named = (dsl: FlowDsl, names: Record<string, string>): FlowDsl => ({
  ...dsl,
  graph: { nodes: Object.keys(dsl.components).map((id) => ({ id, position: { x: 0, y: 0 }, data: { label: dsl.components[id].obj.component_name, name: names[id] ?? id } })), edges: [] },
});

describe("validating a flow", () => {
  it("passes a well-formed flow", () => {
    const flow = sketchFlow({
      begin: { name: "Begin", down: ["answer"] },
      answer: { name: "Answer", down: ["switch"] },
      switch: { name: "Switch", params: { conditions: [{ logical_operator: "or", items: [{ cpn_id: "answer", operator: "≥", value: "3" }], to: "yes" }], end_cpn_id: "no" }, down: ["yes", "no"] },
      yes: { name: "Message", params: { messages: ["Yes"] }, down: ["answer"] },
      no: { name: "Template", params: { content: "{k}", parameters: [{ key: "k", component_id: "begin@x" }] }, down: ["answer"] },
    });
    flow.components.begin.obj.params = { query: [{ key: "x", name: "X", type: "line" }], output_var_name: "output", inputs: [] };
    expect(validateFlow(flow)).toEqual([]);
  });

  it("reports a malformed flow instead of failing on it", () => {
    expect(validateFlow({} as FlowDsl)).toEqual([{ messageKey: "flow.import.notAFlow" }]);
    const broken = { components: { begin: { obj: { component_name: "Begin", params: {} }, upstream: "x", downstream: 7 }, odd: { obj: null } }, graph: { nodes: "none", edges: [null] } } as unknown as FlowDsl;
    expect(keys(validateFlow(broken))).toEqual(["flow.errors.malformedComponent"]);
  });

  it("needs exactly one Begin", () => {
    expect(keys(validateFlow(sketchFlow({ message: { name: "Message", params: { messages: ["hi"] } } })))).toEqual(["flow.errors.beginMissing"]);
    const two = validateFlow(sketchFlow({ begin: { name: "Begin" }, again: { name: "Begin" } }));
    expect(two).toEqual([{ componentId: "again", messageKey: "flow.errors.beginMultiple" }]);
  });

  it("names unknown components and bad params, keeping RAGFlow's extra keys", () => {
    const problems = validateFlow(
      sketchFlow({
        begin: { name: "Begin", params: { prologue: 42, output_var_name: "output" }, down: ["x"] },
        x: { name: "Teleport" },
      }),
    );
    expect(problems).toEqual([
      { componentId: "begin", field: "prologue", messageKey: "errors.param.type", params: { field: "prologue", expected: "string" } },
      { componentId: "x", messageKey: "flow.errors.unknownComponent", params: { name: "Teleport" } },
    ]);
  });

  it("requires a display name, unique within the flow (spec §5)", () => {
    const flow = sketchFlow({ begin: { name: "Begin", down: ["a", "b"] }, a: { name: "Concentrator" }, b: { name: "Concentrator" } });
    expect(validateFlow(named(flow, { a: "Hub", b: "hub" }))).toEqual([{ componentId: "b", field: "name", messageKey: "flow.errors.nameDuplicate", params: { name: "hub" } }]);
    expect(keys(validateFlow(named(flow, { a: "  " })))).toEqual(["flow.errors.nameRequired"]);
  });

  it("requires a Message to have a message (spec §5)", () => {
    const flow = sketchFlow({ begin: { name: "Begin", down: ["m"] }, m: { name: "Message", params: { messages: ["ok", " "] } } });
    expect(validateFlow(flow)).toEqual([{ componentId: "m", field: "messages.1", messageKey: "flow.components.Message.errors.messageRequired", params: undefined }]);
    expect(keys(validateFlow(sketchFlow({ begin: { name: "Begin", down: ["m"] }, m: { name: "Message" } })))).toEqual(["flow.components.Message.errors.messageRequired"]);
  });

  it("applies the editor's connection rules: no self-link, no duplicate edge, RAGFlow's restricted targets, no connected Note", () => {
    const flow = sketchFlow({
      begin: { name: "Begin", down: ["answer"] },
      answer: { name: "Answer", down: ["answer", "message", "hub", "hub"] },
      message: { name: "Message", params: { messages: ["m"] } },
      hub: { name: "Concentrator", down: ["note"] },
      note: { name: "Note" },
    });
    expect(keys(validateFlow(flow))).toEqual(["flow.errors.duplicateEdge", "flow.errors.selfLink", "flow.errors.restrictedLink", "flow.errors.noteConnected"]);
    expect(validateFlow(flow).find((p) => p.messageKey === "flow.errors.restrictedLink")).toMatchObject({ params: { source: "answer", target: "message" } });
  });

  it("checks that routes, references and connections name components of the flow", () => {
    const flow = sketchFlow({
      begin: { name: "Begin", down: ["switch"] },
      switch: { name: "Switch", params: { conditions: [{ items: [{ cpn_id: "ghost", operator: "contains", value: "a" }], to: "nowhere" }], end_cpn_id: "" } },
      t: { name: "Template", params: { parameters: [{ key: "a", component_id: "missing@output" }, { key: "b", component_id: "begin@absent" }], query: [{ type: "reference", component_id: "gone" }] } },
    });
    flow.components.t.downstream.push("void");
    expect(validateFlow(flow)).toEqual([
      { componentId: "switch", field: "conditions.0.items.0.cpn_id", messageKey: "flow.components.Switch.errors.unknownComponent", params: { id: "ghost" } },
      { componentId: "t", messageKey: "flow.errors.unknownTarget", params: { name: "t", target: "void" } },
      { componentId: "switch", messageKey: "flow.errors.routeTargetMissing", params: { name: "switch", target: "nowhere" } },
      { componentId: "t", messageKey: "flow.errors.unknownReference", params: { name: "t", reference: "missing@output" } },
      { componentId: "t", messageKey: "flow.errors.unknownReference", params: { name: "t", reference: "begin@absent" } },
      { componentId: "t", messageKey: "flow.errors.unknownReference", params: { name: "t", reference: "gone" } },
    ]);
  });

  it("keeps an Answer out of an Iteration, and children inside containers only", () => {
    const flow = sketchFlow({
      begin: { name: "Begin", down: ["each"] },
      each: { name: "Iteration" },
      ask: { name: "Answer", parent: "each" },
      lost: { name: "Template", parent: "begin" },
    });
    expect(keys(validateFlow(flow))).toEqual(["flow.errors.interactionInContainer", "flow.errors.unknownParent"]);
  });
  it("flags a Retrieval with no knowledge base at its field, chosen ones pass", () => {
    const flow = (kb_ids: unknown) => sketchFlow({ begin: { name: "Begin", down: ["search"] }, search: { name: "Retrieval", params: { kb_ids }, down: ["answer"] }, answer: { name: "Answer" } });
    const problem = { componentId: "search", field: "kb_ids", messageKey: "flow.components.Retrieval.errors.noKnowledgeBase" };
    expect(validateFlow(flow([]))).toEqual([problem]);
    expect(validateFlow(flow(["  "]))).toEqual([problem]);
    expect(validateFlow(flow(["kb-1"]))).toEqual([]);
  });
  it("asks for a secret a file or a copy left out, and does not check the text of one it cannot read", () => {
    const flow = (headers: string) => sketchFlow({ begin: { name: "Begin", down: ["call"] }, call: { name: "Invoke", params: { url: "https://example.com", headers }, down: ["answer"] }, answer: { name: "Answer" } });
    expect(validateFlow(flow(SECRET_NEEDED))).toEqual([{ componentId: "call", field: "headers", messageKey: "flow.errors.secretNeeded", params: { name: "call" } }]);
    // Sealed or masked, the headers are not JSON to the checks; typed, they are checked.
    expect(validateFlow(flow(SECRET_MASK))).toEqual([]);
    expect(validateFlow(flow("sealed:v1.a.b.c"))).toEqual([]);
    expect(keys(validateFlow(flow("not json")))).toEqual(["flow.components.Invoke.errors.headers"]);
  });
});
