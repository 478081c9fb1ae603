import { Button, HStack, Text, Textarea } from "@chakra-ui/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LuKeyRound } from "react-icons/lu";
import { PasswordInput } from "../../../../components/PasswordInput";
import { SECRET_MASK, SECRET_NEEDED, SECRET_TEXT_WIDGET, secretValue } from "../secrets";
import type { WidgetProps } from "../widgetContext";
import { FieldFrame } from "./FieldFrame";

/**
 * A secret param (an API key, a database password, an HTTP tool's headers): the server never sends it back, so a
 * stored one shows as "•••• set" with Replace. While a replacement is typed the stored one stays; emptied, or with
 * "Keep the stored one", it is kept. A secret a file or a copy left out is typed here again (the server says so).
 */
export function SecretField(props: WidgetProps) {
  const { t } = useTranslation();
  const { spec, path, value, onChange } = props;
  const stored = value === SECRET_MASK || value === SECRET_NEEDED ? value : null;
  // What was stored when the form opened: an emptied field goes back to it.
  const [original] = useState(stored);
  const [replacing, setReplacing] = useState(false);
  const typed = stored === null && typeof value === "string" ? value : "";
  const testId = `flow-form-${path}`;

  if (stored === SECRET_MASK && !replacing) {
    return (
      <FieldFrame {...props} spec={{ ...spec, help: "flow.form.secret.help" }}>
        <HStack gap="3" data-testid={`${testId}-set`}>
          <HStack gap="1.5" color="fg.muted" flex="1">
            <LuKeyRound />
            <Text fontSize="sm">{t("flow.form.secret.set")}</Text>
          </HStack>
          <Button size="xs" variant="outline" onClick={() => setReplacing(true)} data-testid={`${testId}-replace`}>
            {t("flow.form.secret.replace")}
          </Button>
        </HStack>
      </FieldFrame>
    );
  }

  const change = (text: string) => onChange(secretValue(text, original));
  const keep = replacing ? (
    <Button
      size="xs"
      variant="ghost"
      onClick={() => {
        setReplacing(false);
        onChange(SECRET_MASK);
      }}
      data-testid={`${testId}-keep`}
    >
      {t("flow.form.secret.keep")}
    </Button>
  ) : undefined;
  return (
    <FieldFrame {...props} action={keep}>
      {spec.widget === SECRET_TEXT_WIDGET ? (
        <Textarea size="sm" rows={4} fontFamily="mono" fontSize="xs" spellCheck={false} autoComplete="off" value={typed} onChange={(event) => change(event.target.value)} data-testid={testId} />
      ) : (
        <PasswordInput name={path} autoComplete="off" value={typed} onChange={(event) => change(event.target.value)} data-testid={testId} />
      )}
    </FieldFrame>
  );
}
