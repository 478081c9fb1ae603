import { errorCodeOf, fieldProblemsOf, messageKeyOf, messageParamsOf, type FieldProblems } from "../../../errors";
import type { WorkCardFragment, WorkKind } from "../../../graphql/gql/graphql";

/** The kinds my space can filter by, in the server's order (workKinds): a kind the server does not list is not offered. */
export type WorkFilter = WorkKind | "all";

/** Where a work opens: its own page (a file: the folder that holds it, where it can be previewed). */
export function workPath(work: Pick<WorkCardFragment, "kind" | "id" | "variant" | "parentId">): string {
  switch (work.kind) {
    case "knowledgeBase":
      return `/knowledge/dataset?id=${encodeURIComponent(work.id)}`;
    case "assistant":
      return `/chat?assistant=${encodeURIComponent(work.id)}`;
    case "flow":
      return `/flow/${encodeURIComponent(work.id)}`;
    case "file":
      return `/file?folder=${encodeURIComponent(work.variant === "folder" ? work.id : (work.parentId ?? ""))}`;
    case "search":
      return `/search?record=${encodeURIComponent(work.id)}`;
    default:
      return "/my";
  }
}

/**
 * A failed rename's problems under the one "name" field of the dialog: each kind checks its own field (a flow's
 * `title`, the others' `name`) and some report a name in use as a conflict with no field. The dialog has one field,
 * so every refusal of what was typed belongs under it; other failures (network, permission) are the dialog's own.
 */
export function renameProblemsOf(error: unknown): FieldProblems {
  const problems = fieldProblemsOf(error);
  const fieldProblem = problems.name ?? problems.title ?? Object.values(problems)[0];
  if (fieldProblem) return { name: fieldProblem };
  const key = messageKeyOf(error);
  const refusedInput = errorCodeOf(error) === "BAD_REQUEST" || errorCodeOf(error) === "CONFLICT";
  return key && refusedInput ? { name: { key, params: messageParamsOf(error) } } : {};
}
