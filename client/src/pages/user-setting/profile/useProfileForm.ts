import { useMutation } from "@apollo/client/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { notify } from "../../../components/toaster";
import { describeError, fieldProblemsOf, hasNoProblems, problemText, type FieldProblems, type Problem } from "../../../errors";
import { UpdateProfileDocument, type SignedInUserFragment } from "../../../graphql/gql/graphql";
import { currentLanguage } from "../../../i18n";
import { isLanguage } from "../../../languages";
import { authStore } from "../../../session/authStore";
import { setThemePreference, themeForColorSchema } from "../../../theme";
import { changedFields, checkProfile, draftOf, followSaved, profileInputOf, type ProfileDraft } from "./profileDraft";

/** The profile being edited, its problems, and saving it (which also switches the interface's language and theme). */
export function useProfileForm(user: SignedInUserFragment) {
  const { i18n } = useTranslation();
  const [draft, setDraft] = useState<ProfileDraft>(() => draftOf(user, currentLanguage()));
  const [problems, setProblems] = useState<FieldProblems>({});
  const [updateProfile, { loading: saving }] = useMutation(UpdateProfileDocument);
  const saved = draftOf(user, currentLanguage());
  const savedBefore = useRef(saved);
  // The header can change the language or colour schema while this form is open; fields not being edited follow.
  useEffect(() => {
    const now = draftOf(user, currentLanguage());
    const before = savedBefore.current;
    savedBefore.current = now;
    setDraft((current) => followSaved(current, before, now));
  }, [user]);
  const changed = changedFields(draft, saved);

  function edit<K extends keyof ProfileDraft>(field: K, value: ProfileDraft[K]) {
    setDraft((current) => ({ ...current, [field]: value }));
    if (problems[field]) setProblems((current) => ({ ...current, [field]: undefined }));
  }

  async function save() {
    const found = checkProfile(draft);
    setProblems(found);
    if (!hasNoProblems(found)) return;
    try {
      const { data } = await updateProfile({ variables: { input: profileInputOf(draft, changed) } });
      if (!data) return;
      const updated = data.updateProfile;
      authStore.rememberUser(updated);
      if (changed.includes("language") && isLanguage(updated.language)) await i18n.changeLanguage(updated.language);
      if (changed.includes("colorSchema")) setThemePreference(themeForColorSchema(updated.colorSchema));
      setDraft(draftOf(updated, currentLanguage()));
      notify.success("modified");
    } catch (error) {
      const fieldProblems = fieldProblemsOf(error);
      if (hasNoProblems(fieldProblems)) notify.error(describeError(error, i18n));
      else setProblems(fieldProblems);
    }
  }

  return {
    draft,
    edit,
    problemText: (field: keyof ProfileDraft) => problemText(i18n, problems[field]),
    reportProblem: (field: keyof ProfileDraft, problem: Problem) => setProblems((current) => ({ ...current, [field]: problem })),
    changed: changed.length > 0,
    saving,
    save,
    discardChanges() {
      setDraft(saved);
      setProblems({});
    },
  };
}

export type ProfileForm = ReturnType<typeof useProfileForm>;
