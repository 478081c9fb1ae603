import type { FieldProblems } from "../../../errors";
import type { ChangePasswordInput } from "../../../graphql/gql/graphql";

/** §5/§9: the new password must be longer than 8 characters. */
const PASSWORD_MIN_LENGTH = 9;

export interface PasswordDraft {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export const EMPTY_PASSWORD_DRAFT: PasswordDraft = { currentPassword: "", newPassword: "", confirmPassword: "" };

/**
 * The same checks the server makes, so most mistakes are caught before a round trip. `firstPassword`: the account
 * (made by an identity provider) has no password yet, so there is no current one to ask for.
 */
export function checkPasswords({ currentPassword, newPassword, confirmPassword }: PasswordDraft, firstPassword: boolean): FieldProblems {
  const problems: FieldProblems = {};
  if (!firstPassword && !currentPassword) problems.currentPassword = { key: "errors.currentPasswordRequired" };
  if (!newPassword) problems.newPassword = { key: "errors.newPasswordRequired" };
  else if (newPassword.length < PASSWORD_MIN_LENGTH) problems.newPassword = { key: "errors.passwordTooShort" };
  if (!confirmPassword) problems.confirmPassword = { key: "errors.confirmPasswordRequired" };
  else if (confirmPassword !== newPassword) problems.confirmPassword = { key: "errors.passwordMismatch" };
  return problems;
}

/** What the form sends: a first password goes without a current one. */
export function passwordInputOf(draft: PasswordDraft, firstPassword: boolean, revokeApiKeys: boolean): ChangePasswordInput {
  const { currentPassword, newPassword, confirmPassword } = draft;
  return firstPassword ? { newPassword, confirmPassword, revokeApiKeys } : { currentPassword, newPassword, confirmPassword, revokeApiKeys };
}
