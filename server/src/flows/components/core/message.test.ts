import { runComponent } from "../../testing/run-component";
import { Message } from "./message";
import { sketchFlow } from "../../testing/run-flow";

describe("Message", () => {
  it("says one of its v0.14 messages at random", async () => {
    const messages = ["one", "two", "three"];
    const said = new Set<string>();
    for (let i = 0; i < 60 && said.size < 3; i++) said.add((await runComponent(Message, { params: { messages } })).output.content);
    expect([...said].sort()).toEqual(["one", "three", "two"]);
  });

  it("fills the references of a v0.20 content template", async () => {
    const { output } = await runComponent(Message, { params: { content: ["You asked {sys.query}; {Retrieval:a@output}"] }, variables: { "sys.query": "why", "Retrieval:a@output": "because" } });
    expect(output.content).toBe("You asked why; because");
  });

  it("needs a message, and no empty field (spec §5)", () => {
    const flow = sketchFlow({ m: { name: "Message" } });
    expect(Message.checkInFlow!({ messages: [], content: [] }, flow, "m")).toEqual([{ path: "messages", code: "required", messageKey: "flow.components.Message.errors.messageRequired" }]);
    expect(Message.checkInFlow!({ messages: ["a", ""], content: [] }, flow, "m")).toEqual([{ path: "messages.1", code: "required", messageKey: "flow.components.Message.errors.messageRequired" }]);
    expect(Message.checkInFlow!({ messages: [], content: ["{sys.query}"] }, flow, "m")).toEqual([]);
  });
});
