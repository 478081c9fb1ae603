import { Box, HStack, Input, NativeSelect, SegmentGroup, Stack } from "@chakra-ui/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { LuLock, LuMoon, LuSun } from "react-icons/lu";
import { FormField } from "../../../components/FormField";
import { LANGUAGES } from "../../../languages";
import { timeZoneOptions } from "../timeZones";
import type { ProfileForm } from "./useProfileForm";

/** Username, the (read-only) email, colour schema, time zone and language. */
export function ProfileFields({ form, email }: { form: ProfileForm; email: string }) {
  const { t } = useTranslation();
  const zones = useMemo(timeZoneOptions, []);
  const { draft, edit } = form;
  return (
    <Stack gap="5" maxWidth="xl">
      <FormField label={t("profile.username")} error={form.problemText("nickname")} required>
        <Input name="nickname" value={draft.nickname} onChange={(event) => edit("nickname", event.target.value)} />
      </FormField>

      <FormField label={t("profile.email")} helper={t("profile.emailHint")}>
        <Box position="relative" width="full">
          <Input name="email" value={email} readOnly bg="bg.subtle" color="fg.muted" pe="10" aria-readonly="true" />
          <Box position="absolute" right="3" top="50%" transform="translateY(-50%)" color="fg.subtle">
            <LuLock />
          </Box>
        </Box>
      </FormField>

      <FormField label={t("profile.colorSchema")} error={form.problemText("colorSchema")} required>
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

      <FormField label={t("profile.timezone")} error={form.problemText("timezone")} required>
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

      <FormField label={t("profile.language")} error={form.problemText("language")}>
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
  );
}
