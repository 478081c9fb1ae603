import type { Problem } from "../../../errors";
import type { AssistantDraft } from "./assistantDraft";

/** What each tab of the settings dialog gets: the draft, a setter that clears the field's problem, and the problems' texts. */
export interface DraftEditor {
  draft: AssistantDraft;
  edit: <K extends keyof AssistantDraft>(key: K, value: AssistantDraft[K]) => void;
  error: (field: string) => string | undefined;
  reportProblem: (field: string, problem: Problem) => void;
}
