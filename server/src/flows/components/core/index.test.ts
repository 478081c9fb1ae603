import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LANGUAGES } from "../../../platform/messages";
import { messageKeysOf, specProblems, validate, withDefaults } from "../../../platform/param-spec";
import { componentText } from "../../component";
import { CORE_COMPONENTS } from ".";

const hasKey = (texts: Record<string, unknown>, key: string) => {
  const value = key.split(".").reduce<unknown>((node, part) => (typeof node === "object" && node !== null ? (node as Record<string, unknown>)[part] : undefined), texts);
  return typeof value === "string" && value.trim() !== "";
};

describe("the core components", () => {
  it("have RAGFlow's names, each once, and params whose defaults pass their own checks", () => {
    expect(CORE_COMPONENTS.map((c) => c.name)).toEqual(["Begin", "Answer", "Message", "Switch", "Concentrator", "Template", "Iteration", "Code", "Note"]);
    for (const component of CORE_COMPONENTS) {
      expect({ name: component.name, problems: specProblems(component.params) }).toEqual({ name: component.name, problems: [] });
      expect({ name: component.name, errors: validate(component.params, withDefaults(component.params, {})) }).toEqual({ name: component.name, errors: [] });
    }
  });

  it("keep RAGFlow v0.14's defaults", () => {
    const defaults = Object.fromEntries(CORE_COMPONENTS.map((c) => [c.name, withDefaults(c.params, {})]));
    expect(defaults.Begin).toMatchObject({ prologue: "Hi! I'm your smart assistant. What can I do for you?", query: [] });
    expect(defaults.Answer).toMatchObject({ post_answers: [] });
    expect(defaults.Message).toMatchObject({ messages: [] });
    expect(defaults.Switch).toMatchObject({ conditions: [], end_cpn_id: "" });
    expect(defaults.Template).toMatchObject({ content: "", parameters: [] });
    expect(defaults.Iteration).toMatchObject({ delimiter: "," });
  });

  it("keep RAGFlow's connection restrictions (RestrictedUpstreamMap, keyed by the source)", () => {
    const restricted = Object.fromEntries(CORE_COMPONENTS.map((c) => [c.name, c.restrictedTargets]));
    expect(restricted).toEqual({
      Begin: ["Relevant"],
      Answer: ["Begin", "Answer", "Message", "Relevant"],
      Message: ["Begin", "Message", "Generate", "Retrieval", "RewriteQuestion", "Categorize", "Relevant"],
      Switch: ["Begin"],
      Concentrator: ["Begin"],
      Template: ["Begin", "Relevant"],
      Iteration: ["Begin"],
      Code: ["Begin"],
      Note: [],
    });
  });

  it("have their label, description and every param text in every language", () => {
    const keys = CORE_COMPONENTS.flatMap((c) => [componentText.label(c.name), componentText.description(c.name), ...messageKeysOf(c.params), ...(c.outputs ?? []).map((o) => o.label)]);
    for (const locale of LANGUAGES) {
      const texts = JSON.parse(readFileSync(join(__dirname, "../../../../../locales", `${locale}.json`), "utf8"));
      expect({ locale, missing: keys.filter((key) => !hasKey(texts, key)) }).toEqual({ locale, missing: [] });
    }
  });
});
