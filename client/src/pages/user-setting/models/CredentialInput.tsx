import { Input, NativeSelect, Textarea } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { PasswordInput } from "../../../components/PasswordInput";
import type { ModelProviderInfoFragment } from "../../../graphql/gql/graphql";

export type CredentialField = ModelProviderInfoFragment["credentialFields"][number];

interface CredentialInputProps {
  field: CredentialField;
  value: string;
  onChange: (value: string) => void;
  /** When editing: the stored secret, masked, shown as the placeholder of an empty secret field. */
  storedSecret?: string;
}

/** One credential field, drawn by its kind: a password input for a secret, a select, a URL, or base64 text. */
export function CredentialInput({ field, value, onChange, storedSecret }: CredentialInputProps) {
  const { t } = useTranslation();
  const name = `credential-${field.name}`;
  switch (field.kind) {
    case "secret":
      return (
        <PasswordInput
          name={name}
          value={value}
          autoComplete="off"
          placeholder={storedSecret || undefined}
          onChange={(event) => onChange(event.target.value)}
        />
      );
    case "select":
      return (
        <NativeSelect.Root>
          <NativeSelect.Field name={name} value={value} onChange={(event) => onChange(event.target.value)}>
            {!field.required && <option value="">{t("models.dialog.noChoice")}</option>}
            {field.options.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      );
    case "base64":
      return (
        <Textarea
          name={name}
          value={value}
          rows={4}
          fontFamily="mono"
          fontSize="xs"
          spellCheck={false}
          autoComplete="off"
          placeholder={storedSecret || undefined}
          onChange={(event) => onChange(event.target.value)}
        />
      );
    case "url":
      return (
        <Input
          name={name}
          type="url"
          inputMode="url"
          value={value}
          spellCheck={false}
          autoComplete="off"
          placeholder={field.default ?? "https://"}
          onChange={(event) => onChange(event.target.value)}
        />
      );
    default:
      return (
        <Input
          name={name}
          value={value}
          spellCheck={false}
          autoComplete="off"
          placeholder={field.default ?? undefined}
          onChange={(event) => onChange(event.target.value)}
        />
      );
  }
}
