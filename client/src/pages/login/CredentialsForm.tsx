import { Button, Checkbox, Input, Stack } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { FormField } from "../../components/FormField";
import { PasswordInput } from "../../components/PasswordInput";
import type { LoginForm } from "./useLoginForm";

/** Email, nickname (sign-up), password, "remember me" (sign-in) and the submit button. */
export function CredentialsForm({ form }: { form: LoginForm }) {
  const { t } = useTranslation();
  const { isSignUp, credentials, signUpPolicy } = form;
  const domainHint = isSignUp && signUpPolicy?.emailDomains.length ? t("login.signUpDomains", { domains: signUpPolicy.emailDomains.join(", ") }) : undefined;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void form.submit();
      }}
      noValidate
      data-testid={isSignUp ? "sign-up-form" : "sign-in-form"}
    >
      <Stack gap="5">
        <FormField label={t("login.email")} error={form.problemText("email")} helper={domainHint} required>
          <Input name="email" type="email" autoComplete="email" placeholder={t("login.emailPlaceholder")} value={credentials.email} onChange={(event) => form.edit("email", event.target.value)} size="lg" />
        </FormField>
        {isSignUp && (
          <FormField label={t("login.nickname")} error={form.problemText("nickname")} required>
            <Input name="nickname" autoComplete="nickname" placeholder={t("login.nicknamePlaceholder")} value={credentials.nickname} onChange={(event) => form.edit("nickname", event.target.value)} size="lg" />
          </FormField>
        )}
        <FormField label={t("login.password")} error={form.problemText("password")} helper={isSignUp ? t("login.passwordHint") : undefined} required>
          <PasswordInput
            name="password"
            autoComplete={isSignUp ? "new-password" : "current-password"}
            placeholder={t("login.passwordPlaceholder")}
            value={credentials.password}
            onChange={(event) => form.edit("password", event.target.value)}
            size="lg"
          />
        </FormField>
        {!isSignUp && (
          <Checkbox.Root checked={form.remember} onCheckedChange={(event) => form.setRemember(event.checked === true)} colorPalette="brand">
            <Checkbox.HiddenInput name="remember" />
            <Checkbox.Control />
            <Checkbox.Label>{t("login.rememberMe")}</Checkbox.Label>
          </Checkbox.Root>
        )}
        <Button type="submit" colorPalette="brand" size="lg" loading={form.busy} mt="1">
          {isSignUp ? t("login.signUp") : t("login.signIn")}
        </Button>
      </Stack>
    </form>
  );
}
