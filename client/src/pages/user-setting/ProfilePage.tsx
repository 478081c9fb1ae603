import { Button, HStack, Separator, Stack } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import type { SignedInUserFragment } from "../../graphql/gql/graphql";
import { useCurrentUser } from "../../session/useCurrentUser";
import { LinkedIdentities } from "./profile/LinkedIdentities";
import { ProfileFields } from "./profile/ProfileFields";
import { ProfilePhoto } from "./profile/ProfilePhoto";
import { useProfileForm } from "./profile/useProfileForm";
import { SettingsCard } from "./SettingsCard";

function ProfileForm({ user }: { user: SignedInUserFragment }) {
  const { t } = useTranslation();
  const form = useProfileForm(user);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void form.save();
      }}
      noValidate
      data-testid="profile-form"
    >
      <SettingsCard>
        <Stack gap="7">
          <ProfilePhoto form={form} fallbackName={user.email} />
          <Separator />
          <ProfileFields form={form} email={user.email} />
        </Stack>
      </SettingsCard>
      <HStack justify="flex-end" gap="3" mt="5">
        <Button variant="ghost" disabled={!form.changed || form.saving} onClick={form.discardChanges}>
          {t("common.reset")}
        </Button>
        <Button type="submit" colorPalette="brand" loading={form.saving} disabled={!form.changed}>
          {t("common.save")}
        </Button>
      </HStack>
    </form>
  );
}

export default function ProfilePage() {
  const user = useCurrentUser();
  // The guard loads the user before any settings page renders; the key starts a fresh form for another account.
  return user ? (
    <>
      <ProfileForm key={user.id} user={user} />
      <LinkedIdentities />
    </>
  ) : null;
}
