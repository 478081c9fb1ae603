import { expect, test } from "@jest/globals";
import { checkCredentials } from "./credentials";

/** The sign-in and sign-up forms refuse what the server would refuse, before asking it. */

test("signing in needs a well-formed email and a password of any length", () => {
  expect(checkCredentials("signIn", { email: " ada@example.com ", nickname: "", password: "short" })).toEqual({});
  expect(checkCredentials("signIn", { email: "", nickname: "", password: "" })).toEqual({ email: { key: "errors.emailRequired" }, password: { key: "errors.passwordRequired" } });
  expect(checkCredentials("signIn", { email: "ada@example", nickname: "", password: "x" })).toEqual({ email: { key: "errors.emailInvalid" } });
});

test("signing up also needs a nickname of at most 100 characters and a password longer than 8", () => {
  expect(checkCredentials("signUp", { email: "ada@example.com", nickname: "Ada", password: "123456789" })).toEqual({});
  expect(checkCredentials("signUp", { email: "ada@example.com", nickname: "  ", password: "12345678" })).toEqual({
    nickname: { key: "errors.nicknameRequired" },
    password: { key: "errors.passwordTooShort" },
  });
  expect(checkCredentials("signUp", { email: "ada@example.com", nickname: "a".repeat(101), password: "123456789" })).toEqual({ nickname: { key: "errors.nicknameTooLong" } });
});
