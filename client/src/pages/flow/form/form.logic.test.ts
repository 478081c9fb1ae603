/// <reference types="jest" />
import type { ParamSpecView } from "../../../components/paramForm.logic";
import type { EditorNode, FlowComponentInfo, FlowProblem } from "../flowTypes";
import { addInput, beginInputsOf, inputProblems, optionsFromText, setInput } from "./beginInputs";
import { addCategory, categoriesOf, removeCategory, renameCategory, renameProblem, setCategory } from "./categories";
import { addCase, addItem, casesOf, operatorOf, OPERATORS, portsAfterRemoval, removeCase, removeItem, setItem, setLogic, takesValue } from "./conditions";
import { freedomOfParams, modelName, presetParams } from "./modelSettings";
import { formSpecs, nameProblem, placeProblems } from "./nodeForm.logic";
import { isOffered, referenceGroups, referenceLabel } from "./references";
import { SECRET_MASK, SECRET_NEEDED, SECRET_TEXT_WIDGET, SECRET_WIDGET, secretValue } from "./secrets";
import { duplicateKeys, freeKey, inputVariablesOf, insertReference, keyFor, keyValueVariablesOf, parametersOf, switchInputVariable, switchKeyValueVariable } from "./variables";

/** The node forms' pure side: what the pickers offer, and how Begin's inputs, categories and Switch cases are edited. */

const spec = (partial: Partial<ParamSpecView> & Pick<ParamSpecView, "key" | "type">): ParamSpecView => ({ label: `l.${partial.key}`, required: false, nullable: false, trimmed: false, options: [], show: [], hide: [], ...partial });

const component = (name: string, extra: Partial<FlowComponentInfo> = {}): FlowComponentInfo => ({
  name,
  category: "core",
  icon: "LuBox",
  label: `flow.components.${name}.label`,
  description: `flow.components.${name}.description`,
  needs: [],
  routing: false,
  interaction: false,
  editorOnly: false,
  container: false,
  restrictedTargets: [],
  outputs: [],
  params: [],
  ...extra,
});

const t = (key: string, options?: Record<string, unknown>) => (options ? `${key}${JSON.stringify(options)}` : key);

const COMPONENTS = [
  component("Begin"),
  component("Retrieval", { outputs: [{ name: "total", label: "flow.components.Retrieval.outputs.total", type: "number" }] }),
  component("Generate"),
  component("Note", { editorOnly: true }),
];

const NODES: EditorNode[] = [
  { id: "begin", name: "Start", componentName: "Begin", params: { query: [{ key: "lang", name: "Language", type: "line" }, { key: "topic", name: "", type: "line" }, { key: "", name: "Blank" }] } },
  { id: "Retrieval:a", name: "Search docs", componentName: "Retrieval", params: {} },
  { id: "Note:n", name: "A note", componentName: "Note", params: {} },
  { id: "Generate:g", name: "Answer it", componentName: "Generate", params: {} },
  { id: "Generate:later", name: "Later", componentName: "Generate", params: {} },
];

describe("variable pickers", () => {
  const groups = referenceGroups({ nodes: NODES, components: COMPONENTS, upstream: ["begin", "Retrieval:a", "Note:n"], t });

  test("offer Begin's inputs, each upstream component's output and named outputs, then the globals", () => {
    expect(groups.map((group) => group.label)).toEqual(["Start", "Search docs", "flow.form.references.globals"]);
    expect(groups[0].options).toEqual([
      { value: "begin@lang", label: "Language" },
      { value: "begin@topic", label: "topic" },
    ]);
    expect(groups[1].options).toEqual([
      { value: "Retrieval:a", label: "flow.form.references.output" },
      { value: "Retrieval:a@total", label: "flow.components.Retrieval.outputs.total" },
    ]);
    expect(groups[2].options.map((option) => option.value)).toEqual(["sys.query", "sys.user_id", "sys.conversation_turns"]);
  });

  test("never offer a component downstream, the node itself or a note", () => {
    const values = groups.flatMap((group) => group.options.map((option) => option.value));
    expect(values).not.toContain("Generate:later");
    expect(values).not.toContain("Note:n");
  });

  test("name a reference by its component and output, and show a stale one as written", () => {
    expect(referenceLabel("Retrieval:a@total", groups)).toBe("Search docs · flow.components.Retrieval.outputs.total");
    expect(referenceLabel("begin@lang", groups)).toBe("Start · Language");
    expect(referenceLabel("Generate:later", groups)).toBe("Generate:later");
    expect(isOffered("Generate:later", groups)).toBe(false);
    expect(isOffered("sys.query", groups)).toBe(true);
  });
});

describe("stored shapes of the variable lists", () => {
  test("input variables are references or fixed texts, switched without keeping the other's value", () => {
    const variables = inputVariablesOf([{ type: "reference", component_id: "Retrieval:a" }, { type: "input", value: "hello" }, "junk"]);
    expect(variables).toEqual([
      { type: "reference", component_id: "Retrieval:a" },
      { type: "input", value: "hello" },
    ]);
    expect(switchInputVariable(variables[0])).toEqual({ type: "input", value: "" });
    expect(switchInputVariable(variables[1])).toEqual({ type: "reference", component_id: "" });
  });

  test("parameters keep {key, component_id}, new keys are free words and duplicates are found", () => {
    expect(parametersOf([{ key: "docs", component_id: "Retrieval:a", extra: 1 }])).toEqual([{ key: "docs", component_id: "Retrieval:a" }]);
    expect(freeKey(["total", "total_1"], "total")).toBe("total_2");
    expect(keyFor("Retrieval:a@total")).toBe("total");
    expect(keyFor("begin@lang")).toBe("lang");
    expect(keyFor("Retrieval:BlueFox")).toBe("BlueFox");
    expect([...duplicateKeys([{ key: "a" }, { key: "b" }, { key: "a" }, { key: "" }, { key: "" }])]).toEqual([2]);
  });

  test("Invoke's variables are a reference or a fixed value, keeping their key", () => {
    const variables = keyValueVariablesOf([{ key: "q", component_id: "begin@lang" }, { key: "lang", value: "en" }]);
    expect(variables).toEqual([
      { key: "q", component_id: "begin@lang" },
      { key: "lang", value: "en" },
    ]);
    expect(switchKeyValueVariable(variables[0])).toEqual({ key: "q", value: "" });
    expect(switchKeyValueVariable(variables[1])).toEqual({ key: "lang", component_id: "" });
  });

  test("a reference is inserted in braces at the caret", () => {
    expect(insertReference("Answer  please", "begin@lang", 7)).toEqual({ text: "Answer {begin@lang} please", caret: 19 });
    expect(insertReference("Hi", "sys.query")).toEqual({ text: "Hi{sys.query}", caret: 13 });
  });
});

describe("Switch cases", () => {
  test("offer the twelve operators of §9 and read RAGFlow's spellings", () => {
    expect(OPERATORS).toHaveLength(12);
    expect(operatorOf("≠")).toBe("notEqual");
    expect(operatorOf("not contains")).toBe("notContains");
    expect(operatorOf("start with")).toBe("startWith");
    expect(operatorOf(">=")).toBe("ge");
    expect(operatorOf("between")).toBeUndefined();
    expect(takesValue("empty")).toBe(false);
    expect(takesValue("≥")).toBe(true);
  });

  test("are added, joined by and/or, given items and removed, keeping where each leads", () => {
    let cases = casesOf([{ items: [{ cpn_id: "begin@lang", operator: "=", value: "en" }], to: "Generate:g" }]);
    expect(cases[0]).toEqual({ logical_operator: "and", items: [{ cpn_id: "begin@lang", operator: "=", value: "en" }], to: "Generate:g" });
    cases = addCase(cases);
    expect(cases[1]).toEqual({ logical_operator: "and", items: [{ cpn_id: "", operator: "equal", value: "" }], to: "" });
    cases = setLogic(addItem(cases, 0), 0, "or");
    expect(cases[0].logical_operator).toBe("or");
    expect(cases[0].items).toHaveLength(2);
    cases = setItem(cases, 0, 0, { operator: "not empty" });
    expect(cases[0].items[0]).toEqual({ cpn_id: "begin@lang", operator: "notEmpty", value: "" });
    cases = removeItem(cases, 0, 1);
    expect(cases[0].items).toHaveLength(1);
    cases = removeCase(cases, 0);
    expect(cases).toEqual([{ logical_operator: "and", items: [{ cpn_id: "", operator: "equal", value: "" }], to: "" }]);
  });

  test("removing a case moves the later cases' ports up and drops its own", () => {
    expect(portsAfterRemoval(3, 0)).toEqual({ "Case 1": null, "Case 2": "Case 1", "Case 3": "Case 2" });
    expect(portsAfterRemoval(3, 2)).toEqual({ "Case 3": null });
  });
});

describe("Begin's inputs", () => {
  test("are read leniently and added with a free key", () => {
    const inputs = beginInputsOf([{ key: "input", type: "weird", options: "x" }]);
    expect(inputs).toEqual([{ key: "input", name: "", type: "line", optional: false, options: [] }]);
    expect(addInput(inputs)[1]).toEqual({ key: "input_1", name: "", type: "line", optional: false, options: [] });
  });

  test("keep options only while of type options, typed one a line", () => {
    let inputs = setInput(beginInputsOf([{ key: "size", type: "line" }]), 0, { type: "options", options: optionsFromText(" S\n\nM\nS\nL ") });
    expect(inputs[0].options).toEqual(["S", "M", "L"]);
    inputs = setInput(inputs, 0, { type: "integer" });
    expect(inputs[0]).toMatchObject({ type: "integer", options: [] });
  });

  test("name a missing, malformed or repeated key and missing options, as the server does", () => {
    const problems = inputProblems(beginInputsOf([{ key: "" }, { key: "a b" }, { key: "x" }, { key: "x" }, { key: "o", type: "options" }]));
    expect(problems).toEqual({
      0: { key: "flow.components.Begin.errors.inputKey" },
      1: { key: "flow.form.begin.keyFormat" },
      3: { key: "flow.components.Begin.errors.inputKeyDuplicate", params: { key: "x" } },
      4: { key: "flow.components.Begin.errors.inputOptions", params: { key: "o" } },
    });
  });
});

describe("Categorize's categories", () => {
  const start = categoriesOf({ Sales: { description: "buying", to: "Generate:g" }, Support: { examples: "help\nbroken" }, junk: 3 });

  test("are added with a free name, changed and removed", () => {
    expect(Object.keys(start)).toEqual(["Sales", "Support"]);
    const { categories, name } = addCategory(start, "Category");
    expect(name).toBe("Category 3");
    expect(categories[name]).toEqual({ description: "", examples: "" });
    expect(setCategory(categories, "Sales", { examples: "price" }).Sales).toEqual({ description: "buying", to: "Generate:g", examples: "price" });
    expect(Object.keys(removeCategory(categories, "Support"))).toEqual(["Sales", "Category 3"]);
  });

  test("are renamed in place, keeping their order and target; a blank or taken name is refused", () => {
    const renamed = renameCategory(start, "Sales", "Buying");
    expect(Object.entries(renamed)).toEqual([
      ["Buying", { description: "buying", to: "Generate:g" }],
      ["Support", { examples: "help\nbroken" }],
    ]);
    expect(renameProblem(start, "Sales", " ")).toBe("flow.components.Categorize.errors.categoryName");
    expect(renameProblem(start, "Sales", "Support")).toBe("flow.form.categories.nameTaken");
    expect(renameProblem(start, "Sales", "Sales")).toBeUndefined();
  });
});

describe("the form around the params", () => {
  const SPECS = [
    spec({ key: "llm_id", type: "string", widget: "chatModel" }),
    spec({ key: "temperature", type: "number", nullable: true }),
    spec({ key: "max_tokens", type: "integer" }),
    spec({ key: "messages", type: "list" }),
    spec({ key: "kb_ids", type: "list", widget: "knowledgeBases" }),
  ];

  test("gives the model settings to the model widget and one row per text to plain lists", () => {
    expect(formSpecs(SPECS).map((s) => [s.key, s.widget])).toEqual([
      ["llm_id", "chatModel"],
      ["messages", "textList"],
      ["kb_ids", "knowledgeBases"],
    ]);
    expect(formSpecs([spec({ key: "temperature", type: "number" })]).map((s) => s.key)).toEqual(["temperature"]);
  });

  test("gives secrets their own field, a text box for multi-line ones; a stored secret is kept until something is typed", () => {
    const secrets = formSpecs([spec({ key: "api_key", type: "secret" }), spec({ key: "headers", type: "secret", widget: "json" })]);
    expect(secrets.map((s) => [s.key, s.widget])).toEqual([
      ["api_key", SECRET_WIDGET],
      ["headers", SECRET_TEXT_WIDGET],
    ]);
    expect(secretValue("typed", SECRET_MASK)).toBe("typed");
    expect(secretValue("", SECRET_MASK)).toBe(SECRET_MASK);
    expect(secretValue("", SECRET_NEEDED)).toBe(SECRET_NEEDED);
    expect(secretValue("", null)).toBe("");
  });

  test("places each problem at its field, the name's apart, and the rest above the form", () => {
    const problem = (field: string | null, messageKey = "k"): FlowProblem => ({ componentId: "x", field, message: "m", messageKey, params: null });
    const placed = placeProblems([problem(null, "whole"), problem("name"), problem("messages.1"), problem("temperature"), problem("elsewhere.0", "orphan")], SPECS);
    expect(placed.node.map((p) => p.messageKey)).toEqual(["whole", "orphan"]);
    expect(placed.name?.field).toBe("name");
    expect(Object.keys(placed.byPath)).toEqual(["messages.1", "temperature"]);
    expect(placed.byPath["messages.1"]).toEqual({ key: "k", params: undefined, text: "m" });
  });

  test("asks for a name unique in the flow, ignoring case and spaces around, as the server does", () => {
    expect(nameProblem("  ", "Generate:g", NODES)).toEqual({ key: "flow.errors.nameRequired" });
    expect(nameProblem(" search DOCS ", "Generate:g", NODES)).toEqual({ key: "flow.errors.nameDuplicate", params: { name: "search DOCS" } });
    expect(nameProblem("Answer it", "Generate:g", NODES)).toBeUndefined();
  });

  test("model settings: a preset sets the four values, and the params tell which preset they match", () => {
    const presets = [{ name: "precise", temperature: 0.2, topP: 0.75, presencePenalty: 0.5, frequencyPenalty: 0.5 }];
    const params = presetParams(presets[0]);
    expect(params).toEqual({ temperature: 0.2, top_p: 0.75, presence_penalty: 0.5, frequency_penalty: 0.5 });
    expect(freedomOfParams(params, presets)).toBe("precise");
    expect(freedomOfParams({ ...params, top_p: null }, presets)).toBe("custom");
    expect(modelName("gpt-4o@OpenAI")).toBe("gpt-4o");
    expect(modelName("plain")).toBe("plain");
  });
});
