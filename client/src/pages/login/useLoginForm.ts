import { useApolloClient, useMutation, useQuery } from "@apollo/client/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router-dom";
import { notify } from "../../components/toaster";
import { describeError, fieldProblemsOf, hasNoProblems, messageKeyOf, messageParamsOf, problemText, type FieldProblems } from "../../errors";
import { LoginDocument, MeDocument, RegisterDocument, SignUpPolicyDocument, type SignedInUserFragment } from "../../graphql/gql/graphql";
import { currentLanguage } from "../../i18n";
import { isLanguage } from "../../languages";
import { authStore } from "../../session/authStore";
import { checkCredentials, type Credentials, type LoginMode } from "./credentials";

/** The sign-in / sign-up form: what is typed, its problems, and signing in or up, after which the user goes to `returnTo`. */
export function useLoginForm(returnTo: string, initialMode: LoginMode = "signIn") {
  const { i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const client = useApolloClient();
  const [mode, setMode] = useState<LoginMode>(initialMode);
  const [credentials, setCredentials] = useState<Credentials>({ email: "", nickname: "", password: "" });
  const [remember, setRemember] = useState(true);
  const [problems, setProblems] = useState<FieldProblems>({});
  const [login, { loading: signingIn }] = useMutation(LoginDocument);
  const [register, { loading: signingUp }] = useMutation(RegisterDocument);
  // Asked when the sign-up form is shown, and again each time, since accounts may fill the server meanwhile.
  const { data: policyData } = useQuery(SignUpPolicyDocument, { skip: mode !== "signUp", fetchPolicy: "network-only" });

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

  /** Sign-in, sign-up and an identity provider's sign-in all answer with a session: the user goes on signed in. */
  async function enter(session: { token: string; user: SignedInUserFragment }, toast: "loggedIn" | "registered", destination = returnTo) {
    client.writeQuery({ query: MeDocument, data: { me: session.user } });
    authStore.signIn(session.token, session.user);
    await settleLanguage(session.user).catch(() => undefined);
    notify.success(toast);
    navigate(destination, { replace: true });
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

  return {
    enter,
    mode,
    isSignUp: mode === "signUp",
    /** Who may sign up, once the sign-up form asked. */
    signUpPolicy: policyData?.signUpPolicy,
    credentials,
    edit(field: keyof Credentials, value: string) {
      setCredentials((current) => ({ ...current, [field]: value }));
      if (problems[field]) setProblems((current) => ({ ...current, [field]: undefined }));
    },
    problemText: (field: keyof Credentials) => problemText(i18n, problems[field]),
    remember,
    setRemember,
    busy: signingIn || signingUp,
    /** Between sign-in and sign-up: the problems go, and so does the password. */
    switchMode(next: LoginMode) {
      setMode(next);
      setProblems({});
      setCredentials((current) => ({ ...current, password: "" }));
    },
    async submit() {
      const found = checkCredentials(mode, credentials);
      setProblems(found);
      if (!hasNoProblems(found)) return;
      try {
        await (mode === "signIn" ? signIn() : signUp());
      } catch (error) {
        showFailure(error);
      }
    },
  };
}

export type LoginForm = ReturnType<typeof useLoginForm>;
