import { Checkbox, Wrap } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { FormField } from "./FormField";

interface CrossLanguagesFieldProps {
  value: string[];
  languages: string[];
  /** The built-in extractive model cannot translate: the choice is shown, disabled, with the reason. */
  builtin?: boolean;
  onChange: (languages: string[]) => void;
  testId: string;
}

/** RAGFlow's cross_languages: the question is translated into these languages by the chat model and searched in all of them. */
export function CrossLanguagesField({ value, languages, builtin = false, onChange, testId }: CrossLanguagesFieldProps) {
  const { t } = useTranslation();
  const toggle = (language: string, on: boolean) => onChange(on ? [...value, language] : value.filter((chosen) => chosen !== language));
  return (
    <FormField label={t("chat.settings.crossLanguages")} helper={t(builtin ? "chat.settings.crossLanguagesBuiltin" : "chat.settings.crossLanguagesHelp")} disabled={builtin}>
      <Wrap gap="3" data-testid={testId}>
        {languages.map((language) => (
          <Checkbox.Root key={language} size="sm" checked={value.includes(language)} disabled={builtin} onCheckedChange={(details) => toggle(language, details.checked === true)}>
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>{t(`kb.languages.${language}`, { defaultValue: language })}</Checkbox.Label>
          </Checkbox.Root>
        ))}
      </Wrap>
    </FormField>
  );
}
