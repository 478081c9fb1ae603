import { Button, Checkbox, HStack, Stack, Text } from "@chakra-ui/react";
import { useMutation } from "@apollo/client/react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { FormField } from "../../components/FormField";
import { PasswordInput } from "../../components/PasswordInput";
import { notify } from "../../components/toaster";
import { describeError, fieldProblemsOf, hasNoProblems, problemText, type FieldProblems } from "../../errors";
import { ChangePasswordDocument } from "../../graphql/gql/graphql";
import { useCurrentUser } from "../../session/useCurrentUser";
import { SettingsCard } from "./SettingsCard";

/** §5/§9: the new password must be longer than 8 characters. */
const PASSWORD_MIN_LENGTH = 9;

interface PasswordDraft {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

const EMPTY: PasswordDraft = { currentPassword: "", newPassword: "", confirmPassword: "" };

/** The same checks the server makes, so most mistakes are caught before a round trip. */
function checkPasswords({ currentPassword, newPassword, confirmPassword }: PasswordDraft): FieldProblems {
  const problems: FieldProblems = {};
  if (!currentPassword) problems.currentPassword = { key: "errors.currentPasswordRequired" };
  if (!newPassword) problems.newPassword = { key: "errors.newPasswordRequired" };
  else if (newPassword.length < PASSWORD_MIN_LENGTH) problems.newPassword = { key: "errors.passwordTooShort" };
  if (!confirmPassword) problems.confirmPassword = { key: "errors.confirmPasswordRequired" };
  else if (confirmPassword !== newPassword) problems.confirmPassword = { key: "errors.passwordMismatch" };
  return problems;
}

export default function PasswordPage() {
  const { t, i18n } = useTranslation();
  const [draft, setDraft] = useState<PasswordDraft>(EMPTY);
  const [problems, setProblems] = useState<FieldProblems>({});
  const [revokeApiKeys, setRevokeApiKeys] = useState(false);
  const [changePassword, { loading }] = useMutation(ChangePasswordDocument);
  const user = useCurrentUser();

  function edit(field: keyof PasswordDraft, value: string) {
    setDraft((current) => ({ ...current, [field]: value }));
    if (problems[field]) setProblems((current) => ({ ...current, [field]: undefined }));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = checkPasswords(draft);
    setProblems(found);
    if (!hasNoProblems(found)) return;
    try {
      await changePassword({
        variables: { input: { ...draft, revokeApiKeys } },
        update(cache) {
          // The deleted keys must not linger in the API page's list.
          if (revokeApiKeys) cache.evict({ id: "ROOT_QUERY", fieldName: "apiTokens" });
        },
      });
      setDraft(EMPTY);
      setRevokeApiKeys(false);
      notify.success("modified");
    } catch (error) {
      const fieldProblems = fieldProblemsOf(error);
      if (hasNoProblems(fieldProblems)) notify.error(describeError(error, i18n));
      else setProblems(fieldProblems);
    }
  }

  const fields: { name: keyof PasswordDraft; label: string; autoComplete: string; helper?: string }[] = [
    { name: "currentPassword", label: t("password.current"), autoComplete: "current-password" },
    { name: "newPassword", label: t("password.new"), autoComplete: "new-password", helper: t("login.passwordHint") },
    { name: "confirmPassword", label: t("password.confirm"), autoComplete: "new-password" },
  ];

  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid="password-form">
      {/* Tells password managers whose password this is. */}
      <input type="email" name="username" autoComplete="username" value={user?.email ?? ""} readOnly hidden />
      <SettingsCard>
        <Stack gap="5" maxWidth="xl">
          {fields.map((field) => (
            <FormField key={field.name} label={field.label} error={problemText(i18n, problems[field.name])} helper={field.helper} required>
              <PasswordInput
                name={field.name}
                autoComplete={field.autoComplete}
                value={draft[field.name]}
                onChange={(event) => edit(field.name, event.target.value)}
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
        <Button type="submit" colorPalette="brand" loading={loading}>
          {t("password.submit")}
        </Button>
      </HStack>
    </form>
  );
}
