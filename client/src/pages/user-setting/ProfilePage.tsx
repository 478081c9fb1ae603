import { Avatar, Box, Button, Flex, HStack, Input, NativeSelect, SegmentGroup, Separator, Stack, Text } from "@chakra-ui/react";
import { useMutation } from "@apollo/client/react";
import { useEffect, useMemo, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { LuImageUp, LuLock, LuMoon, LuSun, LuTrash2 } from "react-icons/lu";
import { FormField } from "../../components/FormField";
import { notify } from "../../components/toaster";
import { describeError, fieldProblemsOf, hasNoProblems, problemText, type FieldProblems } from "../../errors";
import { UpdateProfileDocument, type SignedInUserFragment } from "../../graphql/gql/graphql";
import { currentLanguage } from "../../i18n";
import { isLanguage, LANGUAGES } from "../../languages";
import { authStore } from "../../session/authStore";
import { useCurrentUser } from "../../session/useCurrentUser";
import { setThemePreference, themeForColorSchema } from "../../theme";
import { SettingsCard } from "./SettingsCard";
import { timeZoneOptions } from "./timeZones";

/** The server's limits for a profile photo. */
const AVATAR_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml"];
const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
const NICKNAME_MAX_LENGTH = 100;

interface ProfileDraft {
  nickname: string;
  avatar: string;
  colorSchema: string;
  timezone: string;
  language: string;
}

function draftOf(user: SignedInUserFragment): ProfileDraft {
  return {
    nickname: user.nickname,
    avatar: user.avatar ?? "",
    colorSchema: user.colorSchema,
    timezone: user.timezone,
    language: isLanguage(user.language) ? user.language : currentLanguage(),
  };
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("The file could not be read"));
    reader.readAsDataURL(file);
  });
}

function ProfileForm({ user }: { user: SignedInUserFragment }) {
  const { t, i18n } = useTranslation();
  const [draft, setDraft] = useState<ProfileDraft>(() => draftOf(user));
  const [problems, setProblems] = useState<FieldProblems>({});
  const [updateProfile, { loading: saving }] = useMutation(UpdateProfileDocument);
  const fileInput = useRef<HTMLInputElement>(null);
  const zones = useMemo(timeZoneOptions, []);
  const saved = draftOf(user);
  const savedBefore = useRef(saved);
  // The header can change the language or colour schema while this form is open; fields not being edited follow.
  useEffect(() => {
    const before = savedBefore.current;
    const now = draftOf(user);
    savedBefore.current = now;
    setDraft((current) => {
      const next = { ...current };
      for (const field of Object.keys(now) as (keyof ProfileDraft)[]) {
        if (current[field] === before[field]) next[field] = now[field];
      }
      return next;
    });
  }, [user]);
  const changed = (Object.keys(draft) as (keyof ProfileDraft)[]).filter((field) => draft[field] !== saved[field]);

  function edit<K extends keyof ProfileDraft>(field: K, value: ProfileDraft[K]) {
    setDraft((current) => ({ ...current, [field]: value }));
    if (problems[field]) setProblems((current) => ({ ...current, [field]: undefined }));
  }

  function discardChanges() {
    setDraft(saved);
    setProblems({});
  }

  async function choosePhoto(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    if (!AVATAR_TYPES.includes(file.type)) return setProblems((p) => ({ ...p, avatar: { key: "errors.avatarInvalid" } }));
    if (file.size > AVATAR_MAX_BYTES) return setProblems((p) => ({ ...p, avatar: { key: "errors.avatarTooLarge" } }));
    try {
      edit("avatar", await readAsDataUrl(file));
    } catch {
      setProblems((p) => ({ ...p, avatar: { key: "errors.fileError" } }));
    }
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    const found: FieldProblems = {};
    if (!draft.nickname.trim()) found.nickname = { key: "errors.usernameRequired" };
    else if (draft.nickname.trim().length > NICKNAME_MAX_LENGTH) found.nickname = { key: "errors.nicknameTooLong" };
    if (!draft.colorSchema) found.colorSchema = { key: "errors.colorSchemaInvalid" };
    if (!draft.timezone) found.timezone = { key: "errors.timezoneInvalid" };
    setProblems(found);
    if (!hasNoProblems(found)) return;

    try {
      const { data } = await updateProfile({
        variables: { input: Object.fromEntries(changed.map((field) => [field, field === "nickname" ? draft.nickname.trim() : draft[field]])) },
      });
      if (!data) return;
      const updated = data.updateProfile;
      authStore.rememberUser(updated);
      if (changed.includes("language") && isLanguage(updated.language)) await i18n.changeLanguage(updated.language);
      if (changed.includes("colorSchema")) setThemePreference(themeForColorSchema(updated.colorSchema));
      setDraft(draftOf(updated));
      notify.success("modified");
    } catch (error) {
      const fieldProblems = fieldProblemsOf(error);
      if (hasNoProblems(fieldProblems)) notify.error(describeError(error, i18n));
      else setProblems(fieldProblems);
    }
  }

  return (
    <form onSubmit={(event) => void save(event)} noValidate data-testid="profile-form">
      <SettingsCard>
        <Stack gap="7">
          <Flex gap="6" align="center" direction={{ base: "column", sm: "row" }}>
            <Avatar.Root size="2xl" colorPalette="brand" boxSize="20">
              <Avatar.Fallback name={draft.nickname || user.email} fontSize="2xl" />
              {draft.avatar && <Avatar.Image src={draft.avatar} alt={t("profile.photo")} data-testid="avatar-preview" />}
            </Avatar.Root>
            <Stack gap="2" flex="1">
              <Text fontWeight="semibold">{t("profile.photo")}</Text>
              <Text fontSize="sm" color="fg.muted">
                {t("profile.photoHint")}
              </Text>
              <HStack gap="2">
                <Button size="sm" variant="outline" onClick={() => fileInput.current?.click()}>
                  <LuImageUp /> {t("profile.uploadPhoto")}
                </Button>
                {draft.avatar && (
                  <Button size="sm" variant="ghost" colorPalette="red" onClick={() => edit("avatar", "")}>
                    <LuTrash2 /> {t("profile.removePhoto")}
                  </Button>
                )}
              </HStack>
              {problems.avatar && (
                <Text fontSize="sm" color="fg.error" role="alert">
                  {problemText(i18n, problems.avatar)}
                </Text>
              )}
              <input ref={fileInput} type="file" accept={AVATAR_TYPES.join(",")} hidden onChange={(event) => void choosePhoto(event)} data-testid="avatar-input" />
            </Stack>
          </Flex>

          <Separator />

          <Stack gap="5" maxWidth="xl">
            <FormField label={t("profile.username")} error={problemText(i18n, problems.nickname)} required>
              <Input name="nickname" value={draft.nickname} onChange={(event) => edit("nickname", event.target.value)} />
            </FormField>

            <FormField label={t("profile.email")} helper={t("profile.emailHint")}>
              <Box position="relative" width="full">
                <Input name="email" value={user.email} readOnly bg="bg.subtle" color="fg.muted" pe="10" aria-readonly="true" />
                <Box position="absolute" right="3" top="50%" transform="translateY(-50%)" color="fg.subtle">
                  <LuLock />
                </Box>
              </Box>
            </FormField>

            <FormField label={t("profile.colorSchema")} error={problemText(i18n, problems.colorSchema)} required>
              <SegmentGroup.Root value={draft.colorSchema} onValueChange={(event) => event.value && edit("colorSchema", event.value)} size="md">
                <SegmentGroup.Indicator />
                <SegmentGroup.Items
                  items={[
                    { value: "Bright", label: <HStack gap="2"><LuSun /> {t("profile.bright")}</HStack> },
                    { value: "Dark", label: <HStack gap="2"><LuMoon /> {t("profile.dark")}</HStack> },
                  ]}
                />
              </SegmentGroup.Root>
            </FormField>

            <FormField label={t("profile.timezone")} error={problemText(i18n, problems.timezone)} required>
              <NativeSelect.Root>
                <NativeSelect.Field name="timezone" value={draft.timezone} onChange={(event) => edit("timezone", event.target.value)}>
                  {zones.map((zone) => (
                    <option key={zone.name} value={zone.name}>
                      {zone.name.replace(/_/g, " ")} ({zone.offset})
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </FormField>

            <FormField label={t("profile.language")} error={problemText(i18n, problems.language)}>
              <NativeSelect.Root>
                <NativeSelect.Field name="language" value={draft.language} onChange={(event) => edit("language", event.target.value)}>
                  {LANGUAGES.map((language) => (
                    <option key={language} value={language}>
                      {t(`language.names.${language}`)}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </FormField>
          </Stack>
        </Stack>
      </SettingsCard>
      <HStack justify="flex-end" gap="3" mt="5">
        <Button variant="ghost" disabled={changed.length === 0 || saving} onClick={discardChanges}>
          {t("common.reset")}
        </Button>
        <Button type="submit" colorPalette="brand" loading={saving} disabled={changed.length === 0}>
          {t("common.save")}
        </Button>
      </HStack>
    </form>
  );
}

export default function ProfilePage() {
  const user = useCurrentUser();
  // The guard loads the user before any settings page renders; the key starts a fresh form for another account.
  return user ? <ProfileForm key={user.id} user={user} /> : null;
}
