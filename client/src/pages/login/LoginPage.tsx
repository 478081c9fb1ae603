import { Alert, Box, Button, Checkbox, Flex, Grid, Heading, HStack, Input, Link as ChakraLink, Stack, Text } from "@chakra-ui/react";
import { useApolloClient, useMutation, useQuery } from "@apollo/client/react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation, useNavigate, useSearchParams } from "react-router-dom";
import { FormField } from "../../components/FormField";
import { LanguageMenu } from "../../components/LanguageMenu";
import { Logo } from "../../components/Logo";
import { PasswordInput } from "../../components/PasswordInput";
import { ThemeMenu } from "../../components/ThemeMenu";
import { notify } from "../../components/toaster";
import {
  describeError,
  fieldProblemsOf,
  hasNoProblems,
  messageKeyOf,
  messageParamsOf,
  problemText,
  type FieldProblems,
} from "../../errors";
import { LoginDocument, MeDocument, RegisterDocument, SignUpPolicyDocument, type SignedInUserFragment } from "../../graphql/gql/graphql";
import { currentLanguage } from "../../i18n";
import { isLanguage } from "../../languages";
import { authStore } from "../../session/authStore";
import { RETURN_TO_PARAM, safeReturnTo } from "../../session/returnTo";
import { BrandPanel } from "./BrandPanel";

type Mode = "signIn" | "signUp";

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The server's rule (§9): a password must be longer than 8 characters. */
const PASSWORD_MIN_LENGTH = 9;
const NICKNAME_MAX_LENGTH = 100;

interface Credentials {
  email: string;
  nickname: string;
  password: string;
}

function checkCredentials(mode: Mode, { email, nickname, password }: Credentials): FieldProblems {
  const problems: FieldProblems = {};
  if (!email.trim()) problems.email = { key: "errors.emailRequired" };
  else if (!EMAIL_PATTERN.test(email.trim())) problems.email = { key: "errors.emailInvalid" };
  if (mode === "signUp") {
    if (!nickname.trim()) problems.nickname = { key: "errors.nicknameRequired" };
    else if (nickname.trim().length > NICKNAME_MAX_LENGTH) problems.nickname = { key: "errors.nicknameTooLong" };
  }
  if (!password) problems.password = { key: "errors.passwordRequired" };
  else if (mode === "signUp" && password.length < PASSWORD_MIN_LENGTH) problems.password = { key: "errors.passwordTooShort" };
  return problems;
}

export default function LoginPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const client = useApolloClient();
  // Checked once: the token that appears while this page signs someone in must not cut the sign-in short.
  const [arrivedSignedIn] = useState(() => authStore.getToken() !== null);
  const returnTo = safeReturnTo(searchParams.get(RETURN_TO_PARAM));

  const [mode, setMode] = useState<Mode>("signIn");
  const [credentials, setCredentials] = useState<Credentials>({ email: "", nickname: "", password: "" });
  const [remember, setRemember] = useState(true);
  const [problems, setProblems] = useState<FieldProblems>({});
  const [login, { loading: signingIn }] = useMutation(LoginDocument);
  const [register, { loading: signingUp }] = useMutation(RegisterDocument);
  // Asked when the sign-up form is shown, and again each time, since accounts may fill the server meanwhile.
  const { data: policyData } = useQuery(SignUpPolicyDocument, { skip: mode !== "signUp", fetchPolicy: "network-only" });
  const signUpPolicy = policyData?.signUpPolicy;

  // Someone already signed in has no business here; the address they were heading for is where they go.
  if (arrivedSignedIn) return <Navigate to={returnTo} replace />;

  function edit(field: keyof Credentials, value: string) {
    setCredentials((current) => ({ ...current, [field]: value }));
    if (problems[field]) setProblems((current) => ({ ...current, [field]: undefined }));
  }

  function switchMode(next: Mode) {
    setMode(next);
    setProblems({});
    setCredentials((current) => ({ ...current, password: "" }));
  }

  function showFailure(error: unknown) {
    const fieldProblems = fieldProblemsOf(error);
    const key = messageKeyOf(error);
    if (key === "errors.emailTaken") fieldProblems.email = { key, params: messageParamsOf(error) };
    if (hasNoProblems(fieldProblems)) notify.error(describeError(error, i18n));
    else setProblems(fieldProblems);
  }

  /** Signing in brings back the account's language (set at sign-up), unless the address asks for one (?lng=). */
  async function settleLanguage(user: SignedInUserFragment) {
    if (user.language === currentLanguage() || !isLanguage(user.language)) return;
    if (!new URLSearchParams(location.search).has("lng")) await i18n.changeLanguage(user.language);
  }

  /** Both sign-in and sign-up answer with a session: the user goes on signed in. */
  async function enter(session: { token: string; user: SignedInUserFragment }, toast: "loggedIn" | "registered") {
    client.writeQuery({ query: MeDocument, data: { me: session.user } });
    authStore.signIn(session.token, session.user);
    await settleLanguage(session.user).catch(() => undefined);
    notify.success(toast);
    navigate(returnTo, { replace: true });
  }

  async function signIn() {
    const { data } = await login({
      variables: { input: { email: credentials.email.trim(), password: credentials.password, remember } },
    });
    if (data) await enter(data.login, "loggedIn");
  }

  async function signUp() {
    const { data } = await register({
      variables: {
        input: {
          email: credentials.email.trim(),
          nickname: credentials.nickname.trim(),
          password: credentials.password,
          language: currentLanguage(),
        },
      },
    });
    if (data) await enter(data.register, "registered");
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = checkCredentials(mode, credentials);
    setProblems(found);
    if (!hasNoProblems(found)) return;
    try {
      await (mode === "signIn" ? signIn() : signUp());
    } catch (error) {
      showFailure(error);
    }
  }

  const busy = signingIn || signingUp;
  const isSignUp = mode === "signUp";
  const signUpClosed = isSignUp && signUpPolicy?.open === false;
  const domainHint = isSignUp && signUpPolicy?.emailDomains.length ? t("login.signUpDomains", { domains: signUpPolicy.emailDomains.join(", ") }) : undefined;

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
            <Stack gap="2" mb="8">
              <Text display={{ base: "block", lg: "none" }} color="fg.muted" fontSize="sm" mb="4">
                {t("brand.tagline")}
              </Text>
              <Heading as="h1" size="2xl" letterSpacing="-0.02em">
                {isSignUp ? t("login.signUpTitle") : t("login.signInTitle")}
              </Heading>
              <Text color="fg.muted">{isSignUp ? t("login.signUpSubtitle") : t("login.signInSubtitle")}</Text>
            </Stack>
            {signUpClosed ? (
              <Alert.Root status="info" variant="subtle" data-testid="sign-up-closed">
                <Alert.Indicator />
                <Alert.Content>
                  <Alert.Title>{t("login.signUpClosedTitle")}</Alert.Title>
                  <Alert.Description>{signUpPolicy?.closedReason === "full" ? t("login.signUpClosedFull") : t("login.signUpClosedDisabled")}</Alert.Description>
                </Alert.Content>
              </Alert.Root>
            ) : (
              <form onSubmit={(event) => void submit(event)} noValidate data-testid={isSignUp ? "sign-up-form" : "sign-in-form"}>
                <Stack gap="5">
                  <FormField label={t("login.email")} error={problemText(i18n, problems.email)} helper={domainHint} required>
                    <Input
                      name="email"
                      type="email"
                      autoComplete="email"
                      placeholder={t("login.emailPlaceholder")}
                      value={credentials.email}
                      onChange={(event) => edit("email", event.target.value)}
                      size="lg"
                    />
                  </FormField>
                  {isSignUp && (
                    <FormField label={t("login.nickname")} error={problemText(i18n, problems.nickname)} required>
                      <Input
                        name="nickname"
                        autoComplete="nickname"
                        placeholder={t("login.nicknamePlaceholder")}
                        value={credentials.nickname}
                        onChange={(event) => edit("nickname", event.target.value)}
                        size="lg"
                      />
                    </FormField>
                  )}
                  <FormField
                    label={t("login.password")}
                    error={problemText(i18n, problems.password)}
                    helper={isSignUp ? t("login.passwordHint") : undefined}
                    required
                  >
                    <PasswordInput
                      name="password"
                      autoComplete={isSignUp ? "new-password" : "current-password"}
                      placeholder={t("login.passwordPlaceholder")}
                      value={credentials.password}
                      onChange={(event) => edit("password", event.target.value)}
                      size="lg"
                    />
                  </FormField>
                  {!isSignUp && (
                    <Checkbox.Root checked={remember} onCheckedChange={(event) => setRemember(event.checked === true)} colorPalette="brand">
                      <Checkbox.HiddenInput name="remember" />
                      <Checkbox.Control />
                      <Checkbox.Label>{t("login.rememberMe")}</Checkbox.Label>
                    </Checkbox.Root>
                  )}
                  <Button type="submit" colorPalette="brand" size="lg" loading={busy} mt="1">
                    {isSignUp ? t("login.signUp") : t("login.signIn")}
                  </Button>
                </Stack>
              </form>
            )}
            <Text mt="8" textAlign="center" color="fg.muted" fontSize="sm">
              {isSignUp ? t("login.haveAccount") : t("login.noAccount")}{" "}
              <ChakraLink
                as="button"
                colorPalette="brand"
                color="brand.fg"
                fontWeight="semibold"
                onClick={() => switchMode(isSignUp ? "signIn" : "signUp")}
                data-testid="switch-mode"
              >
                {isSignUp ? t("login.signIn") : t("login.signUp")}
              </ChakraLink>
            </Text>
          </Box>
        </Flex>
      </Flex>
    </Grid>
  );
}
