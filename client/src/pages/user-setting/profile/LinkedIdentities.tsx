import { Button, Heading, HStack, Stack, Text } from "@chakra-ui/react";
import { useMutation, useQuery } from "@apollo/client/react";
import { useTranslation } from "react-i18next";
import { IdentityProviderIcon } from "../../../components/IdentityProviderIcon";
import { notify } from "../../../components/toaster";
import { describeError } from "../../../errors";
import { useFormatters } from "../../../format";
import { MyIdentitiesDocument, SignInProvidersDocument, UnlinkIdentityDocument } from "../../../graphql/gql/graphql";
import { SettingsCard } from "../SettingsCard";

/** The identity-provider accounts that sign in as this user, each of which can be unlinked while another way to sign in remains. */
export function LinkedIdentities() {
  const { t, i18n } = useTranslation();
  const { dateTime } = useFormatters();
  const { data } = useQuery(MyIdentitiesDocument, { fetchPolicy: "cache-and-network" });
  const { data: providers } = useQuery(SignInProvidersDocument);
  const [unlink, { loading }] = useMutation(UnlinkIdentityDocument, { refetchQueries: [MyIdentitiesDocument], awaitRefetchQueries: true });
  const identities = data?.myIdentities ?? [];
  if (identities.length === 0) return null;
  const labelOf = (name: string) => providers?.signInProviders.find((provider) => provider.name === name)?.label ?? name;

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
            <Button variant="outline" size="sm" loading={loading} onClick={() => void unlinkOne(identity.id)} data-testid="unlink-identity">
              {t("login.providers.unlink")}
            </Button>
          </HStack>
        ))}
      </Stack>
    </SettingsCard>
  );
}
