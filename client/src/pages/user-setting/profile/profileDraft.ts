import type { FieldProblems } from "../../../errors";
import type { SignedInUserFragment } from "../../../graphql/gql/graphql";
import { isLanguage } from "../../../languages";

const NICKNAME_MAX_LENGTH = 100;

export interface ProfileDraft {
  nickname: string;
  avatar: string;
  colorSchema: string;
  timezone: string;
  language: string;
}

/** The form's values for a user; an account language the interface lacks shows as `shownLanguage`. */
export function draftOf(user: SignedInUserFragment, shownLanguage: string): ProfileDraft {
  return {
    nickname: user.nickname,
    avatar: user.avatar ?? "",
    colorSchema: user.colorSchema,
    timezone: user.timezone,
    language: isLanguage(user.language) ? user.language : shownLanguage,
  };
}

const FIELDS = (draft: ProfileDraft) => Object.keys(draft) as (keyof ProfileDraft)[];

/** The fields edited since the last save. */
export function changedFields(draft: ProfileDraft, saved: ProfileDraft): (keyof ProfileDraft)[] {
  return FIELDS(draft).filter((field) => draft[field] !== saved[field]);
}

/**
 * The saved profile changed elsewhere (the header's language or colour-schema menu) while the form is open: fields not
 * being edited (still equal to what was saved `before`) follow to `now`, edited ones stay.
 */
export function followSaved(current: ProfileDraft, before: ProfileDraft, now: ProfileDraft): ProfileDraft {
  const next = { ...current };
  for (const field of FIELDS(now)) {
    if (current[field] === before[field]) next[field] = now[field];
  }
  return next;
}

export function checkProfile(draft: ProfileDraft): FieldProblems {
  const found: FieldProblems = {};
  if (!draft.nickname.trim()) found.nickname = { key: "errors.usernameRequired" };
  else if (draft.nickname.trim().length > NICKNAME_MAX_LENGTH) found.nickname = { key: "errors.nicknameTooLong" };
  if (!draft.colorSchema) found.colorSchema = { key: "errors.colorSchemaInvalid" };
  if (!draft.timezone) found.timezone = { key: "errors.timezoneInvalid" };
  return found;
}

/** The update sends only the changed fields, the nickname trimmed. */
export function profileInputOf(draft: ProfileDraft, changed: (keyof ProfileDraft)[]): Partial<ProfileDraft> {
  return Object.fromEntries(changed.map((field) => [field, field === "nickname" ? draft.nickname.trim() : draft[field]]));
}
