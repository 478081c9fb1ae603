import { Alert, Button, HStack, Separator, Spinner, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { IdentityProviderIcon } from "../../components/IdentityProviderIcon";
import type { SignInProvidersQuery } from "../../graphql/gql/graphql";
import { currentLanguage } from "../../i18n";
import { providerStartHref } from "./providerSignIn";
import type { ProviderSignInState } from "./useProviderSignIn";

/** "or", then a button for each identity provider the server signs in with; nothing when it has none. */
export function ProviderButtons({ providers, returnTo, remember }: { providers: SignInProvidersQuery["signInProviders"]; returnTo: string; remember: boolean }) {
  const { t } = useTranslation();
  if (providers.length === 0) return null;
  return (
    <Stack gap="3" mt="6" data-testid="sign-in-providers">
      <HStack gap="3">
        <Separator flex="1" />
        <Text color="fg.muted" fontSize="sm">
          {t("login.providers.or")}
        </Text>
        <Separator flex="1" />
      </HStack>
      {providers.map((provider) => (
        <Button key={provider.name} asChild variant="outline" size="lg" data-testid={`sign-in-provider-${provider.name}`}>
          {/* A full page visit: the browser goes to the provider and comes back through the server. */}
          <a href={providerStartHref(provider.startUrl, { returnTo, remember, language: currentLanguage() })}>
            <IdentityProviderIcon provider={provider.name} />
            {t("login.providers.continueWith", { provider: provider.label })}
          </a>
        </Button>
      ))}
    </Stack>
  );
}

/** While the session a provider opened is claimed, and why it failed when it did. */
export function ProviderSignInStatus({ state }: { state: ProviderSignInState }) {
  const { t, i18n } = useTranslation();
  if (state.status === "claiming") {
    return (
      <HStack gap="3" mb="6" color="fg.muted" data-testid="sso-signing-in">
        <Spinner size="sm" />
        <Text>{t("login.providers.signingIn")}</Text>
      </HStack>
    );
  }
  if (state.status !== "failed") return null;
  return (
    <Alert.Root status="error" variant="subtle" mb="6" data-testid="sso-error">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{t("login.providers.failedTitle")}</Alert.Title>
        <Alert.Description>{i18n.exists(state.messageKey) ? t(state.messageKey, state.params) : t("errors.requestError")}</Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
