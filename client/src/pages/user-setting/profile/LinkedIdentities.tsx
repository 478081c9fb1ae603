import { Alert, Button, Heading, HStack, Link, Stack, Text } from "@chakra-ui/react";
import { useMutation, useQuery } from "@apollo/client/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import { ConfirmDeleteDialog } from "../../../components/ConfirmDeleteDialog";
import { IdentityProviderIcon } from "../../../components/IdentityProviderIcon";
import { notify } from "../../../components/toaster";
import { describeError } from "../../../errors";
import { useFormatters } from "../../../format";
import { MyIdentitiesDocument, SignInProvidersDocument, UnlinkIdentityDocument, type MyIdentitiesQuery } from "../../../graphql/gql/graphql";
import { useCurrentUser } from "../../../session/useCurrentUser";
import { SettingsCard } from "../SettingsCard";

/** The identity-provider accounts that sign in as this user, each of which can be unlinked while another way to sign in remains. */
export function LinkedIdentities() {
  const { t, i18n } = useTranslation();
  const { dateTime } = useFormatters();
  const { data } = useQuery(MyIdentitiesDocument, { fetchPolicy: "cache-and-network" });
  const { data: providers } = useQuery(SignInProvidersDocument);
  const [unlink] = useMutation(UnlinkIdentityDocument, { refetchQueries: [MyIdentitiesDocument], awaitRefetchQueries: true });
  const [confirming, setConfirming] = useState<MyIdentitiesQuery["myIdentities"][number] | null>(null);
  const user = useCurrentUser();
  const identities = data?.myIdentities ?? [];
  if (identities.length === 0) return null;
  const labelOf = (name: string) => providers?.signInProviders.find((provider) => provider.name === name)?.label ?? name;
  // The server refuses to unlink the only way left to sign in; say so before, and where a password is set.
  const onlyWayToSignIn = user?.hasPassword === false && identities.length === 1;

  async function unlinkOne(id: string) {
    try {
      await unlink({ variables: { id } });
      notify.success("deleted");
    } catch (error) {
      notify.error(describeError(error, i18n));
    }
  }

  return (
    <SettingsCard mt="8" data-testid="linked-identities">
      <Stack gap="1" mb="5">
        <Heading as="h2" size="md">
          {t("login.providers.linkedTitle")}
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          {t("login.providers.linkedHint")}
        </Text>
      </Stack>
      {onlyWayToSignIn && (
        <Alert.Root status="info" variant="subtle" colorPalette="brand" mb="4" data-testid="only-sign-in-method">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Description>
              {t("login.providers.onlyWay")}{" "}
              <Link asChild color="brand.fg" fontWeight="semibold" textDecoration="underline" textUnderlineOffset="3px">
                <RouterLink to="/user-setting/password" data-testid="set-password-link">
                  {t("login.providers.setPassword")}
                </RouterLink>
              </Link>
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      <Stack gap="3">
        {identities.map((identity) => (
          <HStack key={identity.id} gap="4" borderWidth="1px" rounded="l2" px="4" py="3" data-testid="linked-identity">
            <IdentityProviderIcon provider={identity.provider} />
            <Stack gap="0" flex="1" minWidth="0">
              <Text fontWeight="medium">{labelOf(identity.provider)}</Text>
              <Text color="fg.muted" fontSize="sm" truncate>
                {[identity.email, t("login.providers.linkedSince", { date: dateTime(identity.createdAt) })].filter(Boolean).join(" · ")}
              </Text>
            </Stack>
            <Button variant="outline" size="sm" disabled={onlyWayToSignIn} onClick={() => setConfirming(identity)} data-testid="unlink-identity">
              {t("login.providers.unlink")}
            </Button>
          </HStack>
        ))}
      </Stack>
      <ConfirmDeleteDialog
        open={confirming !== null}
        onClose={() => setConfirming(null)}
        onConfirm={() => (confirming ? unlinkOne(confirming.id) : undefined)}
        subject={confirming ? [labelOf(confirming.provider), confirming.email].filter(Boolean).join(" · ") : undefined}
      >
        <Text mt="3" fontSize="sm" color="fg.muted">
          {t("login.providers.unlinkConfirm")}
        </Text>
      </ConfirmDeleteDialog>
    </SettingsCard>
  );
}
