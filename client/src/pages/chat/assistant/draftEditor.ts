import type { FieldProblems, Problem } from "../../../errors";
import type { AssistantFormChoicesQuery } from "../../../graphql/gql/graphql";
import { inLanguage, tabOfField, type AssistantDraft, type AssistantTab } from "./assistantDraft";

/** What each tab of the settings dialog gets: the draft, a setter that clears the field's problem, and the problems' texts. */
export interface DraftEditor {
  draft: AssistantDraft;
  edit: <K extends keyof AssistantDraft>(key: K, value: AssistantDraft[K]) => void;
  error: (field: string) => string | undefined;
  reportProblem: (field: string, problem: Problem) => void;
}

/** The draft after one edit; a new assistant's untouched texts follow its language. */
export function withEdit<K extends keyof AssistantDraft>(draft: AssistantDraft, key: K, value: AssistantDraft[K], isNew: boolean, choices: AssistantFormChoicesQuery | undefined): AssistantDraft {
  return key === "language" && isNew ? inLanguage(draft, value as string, choices) : { ...draft, [key]: value };
}

/** The problems left once a field is edited: its own and those of its parts (`promptVariables.2` for `promptVariables`). */
export function withoutProblemsOf(problems: FieldProblems, key: string): FieldProblems {
  return Object.fromEntries(Object.entries(problems).filter(([field]) => field !== key && !field.startsWith(`${key}.`)));
}

/** The tabs that show a problem, marked in the tab list. */
export function tabsWithProblems(problems: FieldProblems): Set<AssistantTab> {
  return new Set(Object.entries(problems).filter(([, problem]) => problem).map(([field]) => tabOfField(field)));
}

/** The tab of the first problem found, to open on a failed save. */
export function firstProblemTab(problems: FieldProblems): AssistantTab | undefined {
  const first = Object.keys(problems).find((field) => problems[field]);
  return first ? tabOfField(first) : undefined;
}
