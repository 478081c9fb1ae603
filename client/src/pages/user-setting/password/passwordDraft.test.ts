import { expect, test } from "@jest/globals";
import { checkPasswords, passwordInputOf } from "./passwordDraft";

/** The password form: what it refuses, and what it sends, for a change and for a first password. */

const newPassword = "long enough secret";

test("a change needs the current password, a first password does not", () => {
  const draft = { currentPassword: "", newPassword, confirmPassword: newPassword };
  expect(checkPasswords(draft, false)).toEqual({ currentPassword: { key: "errors.currentPasswordRequired" } });
  expect(checkPasswords(draft, true)).toEqual({});
});

test("a first password keeps the rules of strength and confirmation", () => {
  expect(checkPasswords({ currentPassword: "", newPassword: "short", confirmPassword: "shorter" }, true)).toEqual({
    newPassword: { key: "errors.passwordTooShort" },
    confirmPassword: { key: "errors.passwordMismatch" },
  });
});

test("a first password is sent without a current one, even if something was typed there", () => {
  const draft = { currentPassword: "stale", newPassword, confirmPassword: newPassword };
  expect(passwordInputOf(draft, true, false)).toEqual({ newPassword, confirmPassword: newPassword, revokeApiKeys: false });
  expect(passwordInputOf(draft, false, true)).toEqual({ currentPassword: "stale", newPassword, confirmPassword: newPassword, revokeApiKeys: true });
});
