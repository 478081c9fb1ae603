import { Alert, Box, Flex, Grid, Heading, HStack, Link as ChakraLink, Stack, Text } from "@chakra-ui/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useSearchParams } from "react-router-dom";
import { LanguageMenu } from "../../components/LanguageMenu";
import { Logo } from "../../components/Logo";
import { ThemeMenu } from "../../components/ThemeMenu";
import { authStore } from "../../session/authStore";
import { MODE_PARAM, RETURN_TO_PARAM, safeReturnTo } from "../../session/returnTo";
import { BrandPanel } from "./BrandPanel";
import { CredentialsForm } from "./CredentialsForm";
import { ProviderButtons, ProviderSignInStatus } from "./ProviderButtons";
import { useLoginForm, type LoginForm } from "./useLoginForm";
import { useProviderSignIn } from "./useProviderSignIn";

export default function LoginPage() {
  const [searchParams] = useSearchParams();
  // Checked once: the token that appears while this page signs someone in must not cut the sign-in short.
  const [arrivedSignedIn] = useState(() => authStore.getToken() !== null);
  const returnTo = safeReturnTo(searchParams.get(RETURN_TO_PARAM));
  const form = useLoginForm(returnTo, searchParams.get(MODE_PARAM) === "signUp" ? "signUp" : "signIn");
  const providerSignIn = useProviderSignIn(form.enter);

  // Someone already signed in has no business here; the address they were heading for is where they go.
  if (arrivedSignedIn) return <Navigate to={returnTo} replace />;

  return (
    <Grid templateColumns={{ base: "1fr", lg: "minmax(0, 1.1fr) minmax(0, 1fr)" }} minHeight="100dvh">
      <Box display={{ base: "none", lg: "flex" }} flexDirection="column">
        <BrandPanel />
      </Box>
      <Flex direction="column" bg="bg.panel" minHeight="100dvh">
        <Flex justify="space-between" align="center" px={{ base: "5", md: "8" }} h="16">
          <Box display={{ base: "block", lg: "none" }}>
            <Logo />
          </Box>
          <HStack gap="1" ms="auto">
            <LanguageMenu />
            <ThemeMenu />
          </HStack>
        </Flex>
        <Flex flex="1" align="center" justify="center" px={{ base: "5", md: "8" }} pb="16">
          <Box width="full" maxWidth="sm">
            <LoginPanel form={form} providerSignIn={providerSignIn} returnTo={returnTo} />
          </Box>
        </Flex>
      </Flex>
    </Grid>
  );
}

/** The title, the form (or why sign-up is closed), the identity providers, and the link to the other mode. */
function LoginPanel({ form, providerSignIn, returnTo }: { form: LoginForm; providerSignIn: ReturnType<typeof useProviderSignIn>; returnTo: string }) {
  const { t } = useTranslation();
  const { isSignUp, signUpPolicy } = form;
  return (
    <>
      <Stack gap="2" mb="8">
        <Text display={{ base: "block", lg: "none" }} color="fg.muted" fontSize="sm" mb="4">
          {t("brand.tagline")}
        </Text>
        <Heading as="h1" size="2xl" letterSpacing="-0.02em">
          {isSignUp ? t("login.signUpTitle") : t("login.signInTitle")}
        </Heading>
        <Text color="fg.muted">{isSignUp ? t("login.signUpSubtitle") : t("login.signInSubtitle")}</Text>
      </Stack>
      <ProviderSignInStatus state={providerSignIn.state} />
      {isSignUp && signUpPolicy?.open === false ? (
        <Alert.Root status="info" variant="subtle" data-testid="sign-up-closed">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t("login.signUpClosedTitle")}</Alert.Title>
            <Alert.Description>{signUpPolicy.closedReason === "full" ? t("login.signUpClosedFull") : t("login.signUpClosedDisabled")}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      ) : (
        <CredentialsForm form={form} />
      )}
      <ProviderButtons providers={providerSignIn.providers} returnTo={returnTo} remember={form.remember} />
      <Text mt="8" textAlign="center" color="fg.muted" fontSize="sm">
        {isSignUp ? t("login.haveAccount") : t("login.noAccount")}{" "}
        <ChakraLink as="button" colorPalette="brand" color="brand.fg" fontWeight="semibold" onClick={() => form.switchMode(isSignUp ? "signIn" : "signUp")} data-testid="switch-mode">
          {isSignUp ? t("login.signIn") : t("login.signUp")}
        </ChakraLink>
      </Text>
    </>
  );
}
