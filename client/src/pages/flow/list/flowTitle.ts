import { fieldProblemsOf, messageKeyOf, messageParamsOf, type FieldProblems } from "../../../errors";

/**
 * The problems of a failed create, rename or import, by field. The server checks a title's presence as a field
 * problem but reports a title already in use as a conflict with no field; both belong under the title input.
 */
export function titleProblemsOf(error: unknown): FieldProblems {
  const problems = fieldProblemsOf(error);
  const key = messageKeyOf(error);
  if (!problems.title && key === "flow.errors.titleTaken") problems.title = { key, params: messageParamsOf(error) };
  return problems;
}
