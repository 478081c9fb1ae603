import type { FieldProblems } from "../../errors";

export type LoginMode = "signIn" | "signUp";

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The server's rule (§9): a password must be longer than 8 characters. */
const PASSWORD_MIN_LENGTH = 9;
const NICKNAME_MAX_LENGTH = 100;

export interface Credentials {
  email: string;
  nickname: string;
  password: string;
}

/** What the form refuses before asking the server: the nickname and the password's length matter only on sign-up. */
export function checkCredentials(mode: LoginMode, { email, nickname, password }: Credentials): FieldProblems {
  const problems: FieldProblems = {};
  if (!email.trim()) problems.email = { key: "errors.emailRequired" };
  else if (!EMAIL_PATTERN.test(email.trim())) problems.email = { key: "errors.emailInvalid" };
  if (mode === "signUp") {
    if (!nickname.trim()) problems.nickname = { key: "errors.nicknameRequired" };
    else if (nickname.trim().length > NICKNAME_MAX_LENGTH) problems.nickname = { key: "errors.nicknameTooLong" };
  }
  if (!password) problems.password = { key: "errors.passwordRequired" };
  else if (mode === "signUp" && password.length < PASSWORD_MIN_LENGTH) problems.password = { key: "errors.passwordTooShort" };
  return problems;
}
