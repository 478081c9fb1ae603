import { DomainError } from "../../../platform/errors";
import { validate } from "../../../platform/param-spec";
import { runComponent } from "../../testing/run-component";
import { Begin } from "./begin";

const FIELDS = [
  { key: "name", name: "Name", type: "line", optional: false },
  { key: "bio", name: "Bio", type: "paragraph", optional: true },
  { key: "lang", name: "Language", type: "options", options: ["en", "fr"], optional: false },
  { key: "doc", name: "Document", type: "file", optional: true },
  { key: "age", name: "Age", type: "integer", optional: true },
  { key: "ok", name: "Agreed", type: "boolean", optional: true },
];
const given = (values: Record<string, string>) => Object.entries(values).map(([key, content]) => ({ component_id: `begin@${key}`, content }));
const failure = async (values: Record<string, string>) => {
  try {
    await runComponent(Begin, { params: { query: FIELDS }, inputs: given(values) });
  } catch (error) {
    return error instanceof DomainError ? { key: error.messageKey, params: error.params } : error;
  }
  return null;
};

describe("Begin", () => {
  it("says its prologue, RAGFlow's by default", async () => {
    expect((await runComponent(Begin)).output.content).toBe("Hi! I'm your smart assistant. What can I do for you?");
    expect((await runComponent(Begin, { params: { prologue: "Welcome, {begin@name}" }, variables: { "begin@name": "Ada" } })).output.content).toBe("Welcome, Ada");
  });

  it("reads each typed input as its type", async () => {
    const { output } = await runComponent(Begin, { params: { query: FIELDS }, inputs: given({ name: "Ada", bio: "line one\nline two", lang: "fr", doc: "file text", age: " 36 ", ok: "true" }) });
    expect(output.values).toEqual({ name: "Ada", bio: "line one\nline two", lang: "fr", doc: "file text", age: 36, ok: true });
  });

  it("leaves optional inputs out and refuses a missing required one or a value of the wrong type", async () => {
    expect(await failure({ lang: "en" })).toEqual({ key: "flow.components.Begin.errors.inputRequired", params: { name: "Name" } });
    expect(await failure({ name: "A", lang: "de" })).toEqual({ key: "flow.components.Begin.errors.inputInvalid", params: { name: "Language", type: "options" } });
    expect(await failure({ name: "A", lang: "en", age: "3.5" })).toEqual({ key: "flow.components.Begin.errors.inputInvalid", params: { name: "Age", type: "integer" } });
    expect(await failure({ name: "A", lang: "en", ok: "perhaps" })).toEqual({ key: "flow.components.Begin.errors.inputInvalid", params: { name: "Agreed", type: "boolean" } });
    expect(await failure({ name: "A", lang: "en", ok: "no" })).toBeNull();
  });

  it("checks its input list: keys, types, duplicates, options", () => {
    const errors = validate(Begin.params, {
      query: [{ key: "", type: "line" }, { key: "a", type: "date" }, { key: "b", type: "line" }, { key: "b", type: "line" }, { key: "c", type: "options", options: [] }],
    });
    expect(errors.map((e) => [e.path, e.messageKey])).toEqual([
      ["query.0", "flow.components.Begin.errors.inputKey"],
      ["query.1", "flow.components.Begin.errors.inputType"],
      ["query.3", "flow.components.Begin.errors.inputKeyDuplicate"],
      ["query.4", "flow.components.Begin.errors.inputOptions"],
    ]);
    expect(validate(Begin.params, { query: "nope" }).map((e) => e.messageKey)).toEqual(["flow.components.Begin.errors.inputs"]);
  });
});
