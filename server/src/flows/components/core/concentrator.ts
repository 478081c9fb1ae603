import type { ComponentDefinition } from "../../component";
import { DESCRIPTION } from "../../params";

/** A hub that fans out to several components or gathers several branches; it adds no text of its own. */
export const Concentrator: ComponentDefinition = {
  name: "Concentrator",
  category: "core",
  icon: "LuGitMerge",
  params: [DESCRIPTION],
  restrictedTargets: ["Begin"],
  async run() {
    return { content: "" };
  },
};
