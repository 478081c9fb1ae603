import type { ComponentDefinition } from "../../component";
import { DESCRIPTION } from "../../params";
import { pickOne, texts } from "./pick";

/**
 * "Interact": the end of a turn. It tells the user what reached it (unless it was already streamed) and one of
 * its `post_answers` at random, then the run waits for the user's next message.
 */
export const Answer: ComponentDefinition = {
  name: "Answer",
  category: "core",
  icon: "LuMessagesSquare",
  params: [{ key: "post_answers", type: "list", label: "flow.components.Answer.params.post_answers", help: "flow.components.Answer.params.postAnswersHelp", default: [] }, DESCRIPTION],
  restrictedTargets: ["Begin", "Answer", "Message", "Relevant"],
  interaction: true,
  async run({ input, params, resolve }) {
    const post = pickOne(texts(params.post_answers));
    return { content: post === undefined ? input : [input, resolve(post)].filter((part) => part !== "").join("\n") };
  },
};
