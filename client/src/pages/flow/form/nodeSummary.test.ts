/// <reference types="jest" />
import type { FlowComponentInfo } from "../flowTypes";
import { nodeSummary } from "./nodeSummary";

/** The line under a node's name on the canvas: what its settings amount to, in the user's language. */

type SpecInfo = FlowComponentInfo["params"][number];
const spec = (partial: Partial<SpecInfo> & Pick<SpecInfo, "key" | "type">): SpecInfo => ({ label: `l.${partial.key}`, required: false, nullable: false, trimmed: false, options: [], show: [], hide: [], help: null, group: null, min: null, max: null, step: null, minLength: null, pattern: null, widget: null, default: null, params: [], ...partial });

const component = (name: string, params: SpecInfo[] = []): FlowComponentInfo => ({
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
  params,
});

const EN: Record<string, (o: Record<string, unknown>) => string> = {
  "flow.form.summary.knowledgeBases": (o) => `${o.count} knowledge base${o.count === 1 ? "" : "s"}`,
  "flow.form.summary.top": (o) => `top ${o.n}`,
  "flow.form.summary.cases": (o) => `${o.count} cases + ELSE`,
  "flow.form.summary.defaultModel": () => "Default model",
  "flow.form.summary.inputs": (o) => `${o.count} inputs`,
  "flow.form.summary.noCategories": () => "No categories",
  "flow.form.summary.tools": (o) => `${o.count} tools`,
};
const t = (key: string, options: Record<string, unknown> = {}) => EN[key]?.(options) ?? key;

const summary = (name: string, params: Record<string, unknown>, specs: SpecInfo[] = []) => nodeSummary({ id: `${name}:x`, name, componentName: name, params }, component(name, specs), t);

const DESCRIPTION = spec({ key: "description", type: "text", default: "" });
const MODEL = spec({ key: "llm_id", type: "string", widget: "chatModel", default: "" });

describe("nodeSummary", () => {
  test("Retrieval: its knowledge bases and top N, the default top N when none is stored", () => {
    expect(summary("Retrieval", { kb_ids: ["a", "b"], top_n: 8 })).toBe("2 knowledge bases · top 8");
    expect(summary("Retrieval", { kb_ids: ["a"] }, [spec({ key: "top_n", type: "integer", default: 6 })])).toBe("1 knowledge base · top 6");
  });

  test("a component with a chat model: the model's name, or the team's default", () => {
    expect(summary("Generate", { llm_id: "gpt-4o@OpenAI" }, [MODEL])).toBe("gpt-4o");
    expect(summary("Generate", {}, [MODEL])).toBe("Default model");
    expect(summary("Agent", { llm_id: "qwen@Tongyi", tools: ["DuckDuckGo:a", "Wikipedia:b"] }, [MODEL])).toBe("qwen · 2 tools");
  });

  test("Categorize: its categories in order; Switch: its cases and ELSE", () => {
    expect(summary("Categorize", { category_description: { Sales: {}, Support: {} } }, [MODEL])).toBe("Sales · Support");
    expect(summary("Categorize", {}, [MODEL])).toBe("No categories");
    expect(summary("Switch", { conditions: [{ items: [] }, { items: [] }] })).toBe("2 cases + ELSE");
  });

  test("Message: its first message; Begin: its inputs, else its prologue", () => {
    expect(summary("Message", { messages: ["  ", "Hello there!\nSecond line"] })).toBe("Hello there!");
    expect(summary("Begin", { query: [{ key: "a" }, { key: "b" }], prologue: "Hi" })).toBe("2 inputs");
    expect(summary("Begin", { prologue: "Hi! How can I help?" })).toBe("Hi! How can I help?");
  });

  test("the node's description when its settings say nothing, and long texts cut", () => {
    expect(summary("Answer", { description: "Waits for the user" }, [DESCRIPTION])).toBe("Waits for the user");
    expect(summary("Concentrator", {}, [DESCRIPTION])).toBe("");
    const long = summary("Template", { content: "x".repeat(200) });
    expect(long).toHaveLength(80);
    expect(long.endsWith("…")).toBe(true);
  });

  test("tools: Invoke's request, ExeSQL's database, a search's top N", () => {
    expect(summary("Invoke", { method: "post", url: "https://api.example.com/x" })).toBe("POST https://api.example.com/x");
    expect(summary("ExeSQL", { db_type: "mysql", database: "shop", host: "db.local" })).toBe("mysql · shop@db.local");
    expect(summary("DuckDuckGo", { top_n: 10 })).toBe("top 10");
  });
});
