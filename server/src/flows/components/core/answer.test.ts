import { runComponent } from "../../testing/run-component";
import { Answer } from "./answer";
import { Concentrator } from "./concentrator";
import { Note } from "./note";
import { Template } from "./template";
import { validate } from "../../../platform/param-spec";

describe("Answer, Concentrator, Template and Note", () => {
  it("Answer passes on what reached it, and adds one of its post answers", async () => {
    expect((await runComponent(Answer, { input: "The answer." })).output.content).toBe("The answer.");
    expect((await runComponent(Answer, { input: "The answer.", params: { post_answers: ["Anything else?"] } })).output.content).toBe("The answer.\nAnything else?");
    expect(Answer.interaction).toBe(true);
  });

  it("Concentrator adds no text, and Note is never run nor connected", async () => {
    expect((await runComponent(Concentrator, { input: "passing" })).output.content).toBe("");
    expect(Note.editorOnly).toBe(true);
  });

  it("Template fills its parameters' keys", async () => {
    const { output } = await runComponent(Template, { params: { content: "Dear {name}, about {topic}:", parameters: [{ key: "name", component_id: "begin@name" }] }, variables: { name: "Ada", topic: "flows" } });
    expect(output.content).toBe("Dear Ada, about flows:");
    expect(validate(Template.params, { parameters: [{ key: "a", component_id: "x" }, { key: "a", component_id: "y" }, { key: 3 }] }).map((e) => [e.path, e.messageKey])).toEqual([
      ["parameters.1.key", "flow.errors.parameterKeyDuplicate"],
      ["parameters.2", "flow.errors.parameters"],
    ]);
  });
});
