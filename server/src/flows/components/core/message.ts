import type { ParamIssue } from "../../../platform/param-spec";
import type { ComponentDefinition } from "../../component";
import { DESCRIPTION } from "../../params";
import { pickOne, texts } from "./pick";

const blankEntries = (key: string, value: unknown): ParamIssue[] =>
  Array.isArray(value)
    ? value.flatMap((item, i) => (typeof item !== "string" || item.trim() === "" ? [{ path: `${key}.${i}`, code: "required", messageKey: "flow.components.Message.errors.messageRequired" }] : []))
    : [];

/**
 * A fixed message, one of several at random: v0.14's `messages`, or v0.20's `content` whose references
 * (`{sys.query}`, `{component_id@output}`) are filled in.
 */
export const Message: ComponentDefinition = {
  name: "Message",
  category: "core",
  icon: "LuMessageSquareReply",
  params: [
    { key: "messages", type: "list", label: "flow.components.Message.params.messages", default: [] },
    { key: "content", type: "list", label: "flow.components.Message.params.content", help: "flow.components.Message.params.contentHelp", default: [] },
    DESCRIPTION,
  ],
  restrictedTargets: ["Begin", "Message", "Generate", "Retrieval", "RewriteQuestion", "Categorize", "Relevant"],
  // Spec §5: "A flow message must be entered or the field deleted."
  checkInFlow(params) {
    const issues = [...blankEntries("messages", params.messages), ...blankEntries("content", params.content)];
    if (texts(params.messages).length === 0 && texts(params.content).length === 0 && issues.length === 0) {
      issues.push({ path: "messages", code: "required", messageKey: "flow.components.Message.errors.messageRequired" });
    }
    return issues;
  },
  async run({ params, resolve }) {
    const chosen = pickOne([...texts(params.messages), ...texts(params.content)]) ?? "";
    return { content: resolve(chosen) };
  },
};
