import { Button, Checkbox, Heading, HStack, Stack, Text } from "@chakra-ui/react";
import { useApolloClient, useMutation } from "@apollo/client/react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { FormField } from "../../components/FormField";
import { PasswordInput } from "../../components/PasswordInput";
import { notify } from "../../components/toaster";
import { describeError, fieldProblemsOf, hasNoProblems, problemText, type FieldProblems } from "../../errors";
import { ChangePasswordDocument, MeDocument } from "../../graphql/gql/graphql";
import { useCurrentUser } from "../../session/useCurrentUser";
import { checkPasswords, EMPTY_PASSWORD_DRAFT, passwordInputOf, type PasswordDraft } from "./password/passwordDraft";
import { SettingsCard } from "./SettingsCard";

export default function PasswordPage() {
  const { t, i18n } = useTranslation();
  const [draft, setDraft] = useState<PasswordDraft>(EMPTY_PASSWORD_DRAFT);
  const [problems, setProblems] = useState<FieldProblems>({});
  const [revokeApiKeys, setRevokeApiKeys] = useState(false);
  const [changePassword, { loading }] = useMutation(ChangePasswordDocument);
  const client = useApolloClient();
  const user = useCurrentUser();
  // An account made by an identity provider has no password yet: it sets a first one, with no current one to give.
  const firstPassword = user?.hasPassword === false;

  function edit(field: keyof PasswordDraft, value: string) {
    setDraft((current) => ({ ...current, [field]: value }));
    if (problems[field]) setProblems((current) => ({ ...current, [field]: undefined }));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = checkPasswords(draft, firstPassword);
    setProblems(found);
    if (!hasNoProblems(found)) return;
    try {
      await changePassword({
        variables: { input: passwordInputOf(draft, firstPassword, revokeApiKeys) },
        update(cache) {
          // The deleted keys must not linger in the API page's list.
          if (revokeApiKeys) cache.evict({ id: "ROOT_QUERY", fieldName: "apiTokens" });
          // From now on this page asks for the current password, and an identity may be unlinked.
          if (firstPassword && user) cache.modify({ id: cache.identify(user), fields: { hasPassword: () => true } });
        },
      });
      setDraft(EMPTY_PASSWORD_DRAFT);
      setRevokeApiKeys(false);
      notify.success("modified");
    } catch (error) {
      const fieldProblems = fieldProblemsOf(error);
      if (hasNoProblems(fieldProblems)) notify.error(describeError(error, i18n));
      else setProblems(fieldProblems);
      // A password was set meanwhile (another session): reload, so that the current-password field and its message show.
      if (firstPassword && fieldProblems.currentPassword) await client.refetchQueries({ include: [MeDocument] });
    }
  }

  const fields: { name: keyof PasswordDraft; label: string; autoComplete: string; helper?: string }[] = [
    ...(firstPassword ? [] : [{ name: "currentPassword" as const, label: t("password.current"), autoComplete: "current-password" }]),
    { name: "newPassword", label: t("password.new"), autoComplete: "new-password", helper: t("login.passwordHint") },
    { name: "confirmPassword", label: t("password.confirm"), autoComplete: "new-password" },
  ];

  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid={firstPassword ? "set-password-form" : "password-form"}>
      {/* Tells password managers whose password this is. */}
      <input type="email" name="username" autoComplete="username" value={user?.email ?? ""} readOnly hidden />
      <SettingsCard>
        <Stack gap="5" maxWidth="xl">
          {firstPassword && (
            <Stack gap="1" data-testid="set-password-intro">
              <Heading as="h2" size="md">
                {t("password.setTitle")}
              </Heading>
              <Text color="fg.muted" fontSize="sm">
                {t("password.setHint")}
              </Text>
            </Stack>
          )}
          {fields.map((field) => (
            <FormField key={field.name} label={field.label} error={problemText(i18n, problems[field.name])} helper={field.helper} required>
              <PasswordInput
                name={field.name}
                autoComplete={field.autoComplete}
                value={draft[field.name]}
                onChange={(event) => edit(field.name, event.target.value)}
                data-testid={`password-${field.name}`}
              />
            </FormField>
          ))}
          <Stack gap="1">
            <Checkbox.Root checked={revokeApiKeys} onCheckedChange={(event) => setRevokeApiKeys(event.checked === true)} colorPalette="brand" data-testid="revoke-api-keys">
              <Checkbox.HiddenInput name="revokeApiKeys" />
              <Checkbox.Control />
              <Checkbox.Label>{t("password.revokeApiKeys")}</Checkbox.Label>
            </Checkbox.Root>
            <Text fontSize="sm" color="fg.muted" ps="6">
              {t("password.revokeApiKeysHint")}
            </Text>
          </Stack>
        </Stack>
      </SettingsCard>
      <HStack justify="flex-end" mt="5">
        <Button type="submit" colorPalette="brand" loading={loading} data-testid="password-submit">
          {t(firstPassword ? "password.setSubmit" : "password.submit")}
        </Button>
      </HStack>
    </form>
  );
}
