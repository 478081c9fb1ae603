import { Button, chakra, Field, Input, NativeSelect, Stack, Switch, Text, Textarea } from "@chakra-ui/react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { LuPlay } from "react-icons/lu";
import type { SharedFlowQuery } from "../../../graphql/gql/graphql";

type BeginInput = SharedFlowQuery["sharedFlow"]["inputs"][number];

/** The text each field sends (Begin reads its value by its type: an integer, "true"/"false", one of the options). */
export type BeginValues = Record<string, string>;

/** Fields a visitor can fill in; a file needs an upload the shared page does not offer. */
const fillable = (input: BeginInput) => input.type !== "file";

/** What keeps the form from being sent: a required field left empty, or a required file. */
export function missingInputs(inputs: readonly BeginInput[], values: BeginValues): string[] {
  return inputs.filter((input) => !input.optional && (!fillable(input) || !(values[input.key] ?? "").trim())).map((input) => input.key);
}

interface BeginInputsFormProps {
  inputs: readonly BeginInput[];
  busy: boolean;
  onStart: (values: BeginValues) => void;
}

/** Begin's inputs (§ the flow's start), asked before the conversation, each by its type. */
export function BeginInputsForm({ inputs, busy, onStart }: BeginInputsFormProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<BeginValues>(() =>
    Object.fromEntries(inputs.map((input) => [input.key, input.type === "boolean" ? "false" : input.type === "options" ? (input.options[0] ?? "") : ""])),
  );
  const [tried, setTried] = useState(false);
  const missing = missingInputs(inputs, values);
  const set = (key: string, value: string) => setValues((current) => ({ ...current, [key]: value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (missing.length === 0) onStart(Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim() !== "")));
  }

  return (
    // The browser's own checks would stop the submit before this form says, in the page's language, what is missing.
    <chakra.form noValidate onSubmit={submit} bg="bg.panel" borderWidth="1px" rounded="l3" p="4" data-testid="shared-flow-inputs">
      <Stack gap="4">
        <Text fontSize="sm" color="fg.muted">
          {t("flow.publish.shared.inputsHelp")}
        </Text>
        {inputs.map((input) => {
          const invalid = tried && missing.includes(input.key);
          const testId = `shared-flow-input-${input.key}`;
          const value = values[input.key] ?? "";
          return (
            <Field.Root key={input.key} required={!input.optional} invalid={invalid}>
              <Field.Label>
                {input.name}
                <Field.RequiredIndicator />
              </Field.Label>
              {input.type === "paragraph" ? (
                <Textarea value={value} onChange={(event) => set(input.key, event.target.value)} rows={3} autoresize maxHeight="40" data-testid={testId} />
              ) : input.type === "options" ? (
                <NativeSelect.Root>
                  <NativeSelect.Field value={value} onChange={(event) => set(input.key, event.target.value)} data-testid={testId}>
                    {input.options.map((option) => (
                      <option key={option} value={option}>
                        {option}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              ) : input.type === "boolean" ? (
                <Switch.Root checked={value === "true"} onCheckedChange={(details) => set(input.key, String(details.checked))} colorPalette="brand" data-testid={testId}>
                  <Switch.HiddenInput />
                  <Switch.Control />
                </Switch.Root>
              ) : input.type === "file" ? (
                <Text fontSize="sm" color="fg.muted">
                  {t("flow.publish.shared.fileUnavailable")}
                </Text>
              ) : (
                <Input value={value} onChange={(event) => set(input.key, event.target.value)} inputMode={input.type === "integer" ? "numeric" : undefined} type={input.type === "integer" ? "number" : "text"} step={input.type === "integer" ? 1 : undefined} data-testid={testId} />
              )}
              {invalid && <Field.ErrorText>{t(fillable(input) ? "flow.publish.shared.inputRequired" : "flow.publish.shared.fileUnavailable")}</Field.ErrorText>}
            </Field.Root>
          );
        })}
        <Button type="submit" colorPalette="brand" alignSelf="flex-start" loading={busy} data-testid="shared-flow-start">
          <LuPlay /> {t("flow.publish.shared.start")}
        </Button>
      </Stack>
    </chakra.form>
  );
}
