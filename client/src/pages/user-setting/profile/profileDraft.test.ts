import { expect, test } from "@jest/globals";
import type { SignedInUserFragment } from "../../../graphql/gql/graphql";
import { changedFields, checkProfile, draftOf, followSaved, profileInputOf, type ProfileDraft } from "./profileDraft";

/** The profile form: what it shows, what it refuses, what a save sends, and how it follows the header's menus. */

const saved: ProfileDraft = { nickname: "Ada", avatar: "", colorSchema: "Bright", timezone: "UTC+8\tAsia/Shanghai", language: "en" };

test("an account language the interface lacks shows as the current one, and a missing photo as none", () => {
  const user = { nickname: "Ada", avatar: null, colorSchema: "Dark", timezone: "UTC", language: "French" } as unknown as SignedInUserFragment;
  expect(draftOf(user, "zh")).toEqual({ nickname: "Ada", avatar: "", colorSchema: "Dark", timezone: "UTC", language: "zh" });
});

test("a save sends only the changed fields, the nickname trimmed", () => {
  const draft = { ...saved, nickname: "  Ada L. ", language: "es" };
  const changed = changedFields(draft, saved);
  expect(changed).toEqual(["nickname", "language"]);
  expect(profileInputOf(draft, changed)).toEqual({ nickname: "Ada L.", language: "es" });
});

test("the nickname is required and at most 100 characters; the colour schema and time zone are required", () => {
  expect(checkProfile(saved)).toEqual({});
  expect(checkProfile({ ...saved, nickname: " ", colorSchema: "", timezone: "" })).toEqual({
    nickname: { key: "errors.usernameRequired" },
    colorSchema: { key: "errors.colorSchemaInvalid" },
    timezone: { key: "errors.timezoneInvalid" },
  });
  expect(checkProfile({ ...saved, nickname: "a".repeat(101) })).toEqual({ nickname: { key: "errors.nicknameTooLong" } });
});

test("a change made in the header reaches the fields not being edited, and leaves the edited ones alone", () => {
  const editing = { ...saved, nickname: "Ada L.", language: "zh" };
  const now = { ...saved, colorSchema: "Dark", language: "es" };
  expect(followSaved(editing, saved, now)).toEqual({ ...saved, nickname: "Ada L.", colorSchema: "Dark", language: "zh" });
});
