import { expect, test } from "@jest/globals";
import { HOME_PATH, loginPathFor, MODE_PARAM, RETURN_TO_PARAM, safeReturnTo } from "./returnTo";

/** After sign-in the user comes back to the page they asked for, and never to another site. */

test("the login address carries the page asked for", () => {
  const path = loginPathFor("/knowledge/dataset?id=1&doc=2");
  expect(path.startsWith("/login?")).toBe(true);
  expect(new URLSearchParams(path.slice("/login?".length)).get(RETURN_TO_PARAM)).toBe("/knowledge/dataset?id=1&doc=2");
});

test("the public pages' sign-up address opens the sign-up form and comes back to the page", () => {
  const params = new URLSearchParams(loginPathFor("/demo", "signUp").slice("/login?".length));
  expect([params.get(RETURN_TO_PARAM), params.get(MODE_PARAM)]).toEqual(["/demo", "signUp"]);
  expect(new URLSearchParams(loginPathFor("/demo").slice("/login?".length)).has(MODE_PARAM)).toBe(false);
});

test("a path inside the application is followed", () => {
  expect(safeReturnTo("/chat?assistant=a-1")).toBe("/chat?assistant=a-1");
});

test.each([null, "", "https://evil.example/", "//evil.example", "/\\evil.example", "chat", "/login", "/login?redirect=/chat", "/login-next"])(
  "%p leads home instead",
  (raw) => {
    expect(safeReturnTo(raw)).toBe(HOME_PATH);
  },
);
