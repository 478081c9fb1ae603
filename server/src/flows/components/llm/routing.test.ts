import { builtin } from "../../../models/builtin/builtin.provider";
import { validate } from "../../../platform/param-spec";
import type { FlowDsl } from "../../dsl";
import { runComponent, testPorts } from "../../testing/run-component";
import { startScriptedChatServer, type ScriptedChatServer } from "../../testing/scripted-chat-server";
import { categorizeComponent } from "./categorize";
import { relevantComponent } from "./relevant";

/** Categorize and Relevant: the branch they choose, with a model that writes (a local scripted server) and with the built-in one. */

let server: ScriptedChatServer;
beforeAll(async () => {
  server = await startScriptedChatServer(() => "");
});
afterAll(() => server.close());

const ports = () => testPorts({ chat: server.model() });
const builtinPorts = () => testPorts({ chat: builtin.create("chat", { modelName: "cairn-extractive", credentials: {} }) });

const CATEGORIES = {
  product_related: { description: "The question is about the product usage.", examples: "How to install it onto the wall?\nIt leaks, what to do?", to: "retrieval:0" },
  casual: { description: "Casual chat.", examples: "How are you doing?\nWhat is your name?", to: "generate:casual" },
  others: { description: "Anything else.", examples: "", to: "message:0" },
};

describe("Categorize", () => {
  test("asks with a few-shot prompt of the categories and follows the one the model names", async () => {
    server.script = () => "Category: casual";
    const { output } = await runComponent(categorizeComponent, {
      params: { category_description: CATEGORIES },
      input: "Are you a robot?",
      history: [
        { role: "assistant", content: "Hi! How can I help?" },
        { role: "user", content: "Are you a robot?" },
      ],
      ports: ports(),
    });
    expect(output).toEqual({ content: "casual", values: { category: "casual" }, next: ["generate:casual"] });
    const [system, user] = server.requests().at(-1)!.messages;
    expect(system.content).toContain("categorize the user's questions into 3 categories,\nnamely: product_related/casual/others");
    expect(system.content).toContain("Category: product_related\nDescription: The question is about the product usage.");
    expect(system.content).toContain("USER: How to install it onto the wall?\nCategory: product_related");
    // A window of 1: the message before the text, then the text.
    expect(system.content).toMatch(/---- Real Data ----\nASSISTANT: Hi! How can I help\?\nUSER: Are you a robot\?$/);
    expect(user).toEqual({ role: "user", content: "\nCategory: " });
  });

  test("falls back to the last category when the answer names none", async () => {
    server.script = () => "I am not sure.";
    const { output } = await runComponent(categorizeComponent, { params: { category_description: CATEGORIES }, input: "Quantum?", ports: ports() });
    expect(output.next).toEqual(["message:0"]);
  });

  test("with the built-in model (no key), chooses the category whose examples share the most words with the text", async () => {
    const before = server.requests().length;
    const leak = await runComponent(categorizeComponent, { params: { category_description: CATEGORIES }, input: "My unit leaks water, what should I do?", ports: builtinPorts() });
    expect(leak.output.next).toEqual(["retrieval:0"]);
    const name = await runComponent(categorizeComponent, { params: { category_description: CATEGORIES }, input: "what is your name", ports: builtinPorts() });
    expect(name.output.next).toEqual(["generate:casual"]);
    const nothing = await runComponent(categorizeComponent, { params: { category_description: CATEGORIES }, input: "zzz", ports: builtinPorts() });
    expect(nothing.output.next).toEqual(["message:0"]);
    expect(server.requests().length).toBe(before);
  });

  test("has one port per category, named by the category, and checks its categories and their targets", async () => {
    expect(categorizeComponent.routes!({ category_description: CATEGORIES })).toEqual([
      { handle: "product_related", target: "retrieval:0", label: "product_related", literal: true },
      { handle: "casual", target: "generate:casual", label: "casual", literal: true },
      { handle: "others", target: "message:0", label: "others", literal: true },
    ]);
    expect(validate(categorizeComponent.params, { category_description: { " ": { to: "x" } } }).map((e) => e.messageKey)).toEqual(["flow.components.Categorize.errors.categoryName"]);
    const flow: FlowDsl = { components: { "retrieval:0": { obj: { component_name: "Retrieval", params: {} }, upstream: [], downstream: [] } } };
    const issues = (categories: unknown) => categorizeComponent.checkInFlow!({ category_description: categories }, flow, "categorize:0").map((i) => [i.path, i.messageKey, i.params]);
    expect(issues({})).toEqual([["category_description", "flow.components.Categorize.errors.noCategories", undefined]]);
    expect(issues(CATEGORIES)).toEqual([
      ["category_description.casual.to", "flow.errors.unknownRouteTarget", { target: "generate:casual" }],
      ["category_description.others.to", "flow.errors.unknownRouteTarget", { target: "message:0" }],
    ]);
    expect(issues({ a: { to: "retrieval:0" }, b: { description: "not linked yet" } })).toEqual([["category_description.b.to", "flow.components.Categorize.errors.categoryTo", { name: "b" }]]);
    await expect(runComponent(categorizeComponent, { params: { category_description: {} }, ports: ports() })).rejects.toMatchObject({ messageKey: "flow.components.Categorize.errors.noCategories" });
  });
});

describe("Relevant", () => {
  const params = { yes: "generate:0", no: "rewrite:0" };
  const DOCUMENTS = "Tides are caused by the gravitational pull of the moon on the oceans.";

  test("grades the documents against the latest question and goes on to yes or no", async () => {
    server.script = () => "yes";
    const yes = await runComponent(relevantComponent, { params, input: DOCUMENTS, history: [{ role: "user", content: "What causes tides?" }], ports: ports() });
    expect(yes.output).toEqual({ content: "yes", next: ["generate:0"] });
    expect(server.requests().at(-1)!.messages[1].content).toBe(`Question: What causes tides?\nDocuments: \n${DOCUMENTS}`);
    server.script = () => "No.";
    expect((await runComponent(relevantComponent, { params, input: DOCUMENTS, question: "Who won?", ports: ports() })).output).toEqual({ content: "no", next: ["rewrite:0"] });
  });

  test("nothing to read is no, without a model call; an answer that is neither goes on as no, with a note", async () => {
    const before = server.requests().length;
    expect((await runComponent(relevantComponent, { params, input: "  ", question: "What causes tides?", ports: ports() })).output.next).toEqual(["rewrite:0"]);
    expect(server.requests().length).toBe(before);
    server.script = () => "Perhaps.";
    const unclear = await runComponent(relevantComponent, { params, input: DOCUMENTS, question: "What causes tides?", ports: ports() });
    expect(unclear.output.next).toEqual(["rewrite:0"]);
    expect(unclear.output.notes).toEqual(["The model answered neither yes nor no (Perhaps.): the flow goes on as No."]);
  });

  test("with the built-in model (no key), the documents are relevant when they hold half of the question's words", async () => {
    const relevant = await runComponent(relevantComponent, { params, input: DOCUMENTS, question: "What causes the tides of the oceans?", ports: builtinPorts() });
    expect(relevant.output.next).toEqual(["generate:0"]);
    const irrelevant = await runComponent(relevantComponent, { params, input: DOCUMENTS, question: "How is sourdough bread baked?", ports: builtinPorts() });
    expect(irrelevant.output.next).toEqual(["rewrite:0"]);
  });

  test("has a yes and a no port", () => {
    expect(relevantComponent.routes!(params).map((r) => [r.handle, r.target])).toEqual([
      ["yes", "generate:0"],
      ["no", "rewrite:0"],
    ]);
  });
});
