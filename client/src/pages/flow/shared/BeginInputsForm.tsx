import { Button, HStack, Input, NativeSelect, Stack, Switch, Text, Textarea } from "@chakra-ui/react";
import { useMutation } from "@apollo/client/react";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { LuFileText, LuX } from "react-icons/lu";
import { FormField } from "../../../components/FormField";
import { describeError } from "../../../errors";
import { FlowInputFileTextDocument } from "../../../graphql/gql/graphql";
import { fileProblem, type BeginInput, type BeginValues, type InputProblem } from "./beginValues";

interface BeginInputsFormProps {
  inputs: readonly BeginInput[];
  values: BeginValues;
  problems: Record<string, InputProblem>;
  onChange: (key: string, value: string | boolean) => void;
  disabled: boolean;
  /** The form's data-testid; each field's is `${testId}-${key}` ("run-inputs" → "run-input-lang"). */
  testIds: { form: string; field: string };
  /** Whether a file can be given (its text is the value); a shared flow's page cannot take files. */
  files: boolean;
}

/**
 * One field per Begin input, drawn by its type, for the editor's run panel and a shared flow's page. An options input
 * offers "Choose…" while nothing is chosen (or while it is optional).
 */
export function BeginInputsForm({ inputs, values, problems, onChange, disabled, testIds, files }: BeginInputsFormProps) {
  const { t } = useTranslation();
  const problemText = (key: string) => {
    const problem = problems[key];
    return problem ? t(problem.key, problem.params) : undefined;
  };
  return (
    <Stack gap="4" data-testid={testIds.form}>
      {inputs.map((input) => {
        const value = values[input.key];
        const text = typeof value === "string" ? value : "";
        const testId = `${testIds.field}-${input.key}`;
        if (input.type === "boolean") {
          return (
            <Switch.Root key={input.key} checked={value === true} onCheckedChange={(details) => onChange(input.key, details.checked)} disabled={disabled} colorPalette="brand" data-testid={testId}>
              <Switch.HiddenInput />
              <Switch.Control />
              <Switch.Label>{input.name}</Switch.Label>
            </Switch.Root>
          );
        }
        return (
          <FormField key={input.key} label={input.name} required={!input.optional} error={problemText(input.key)} disabled={disabled}>
            {input.type === "paragraph" ? (
              <Textarea rows={3} autoresize maxHeight="40" value={text} onChange={(event) => onChange(input.key, event.target.value)} data-testid={testId} />
            ) : input.type === "options" ? (
              <NativeSelect.Root>
                <NativeSelect.Field value={text} onChange={(event) => onChange(input.key, event.target.value)} data-testid={testId}>
                  {(text === "" || input.optional) && <option value="">{t("flow.run.inputs.choose")}</option>}
                  {input.options.map((option) => (
                    <option key={option} value={option}>
                      {option}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            ) : input.type === "integer" ? (
              <Input type="number" step={1} inputMode="numeric" value={text} onChange={(event) => onChange(input.key, event.target.value)} data-testid={testId} />
            ) : input.type === "file" ? (
              files ? (
                <FileTextInput testId={testId} hasText={text !== ""} disabled={disabled} onText={(read) => onChange(input.key, read)} />
              ) : (
                <Text fontSize="sm" color="fg.muted">
                  {t("flow.publish.shared.fileUnavailable")}
                </Text>
              )
            ) : (
              <Input value={text} onChange={(event) => onChange(input.key, event.target.value)} data-testid={testId} />
            )}
          </FormField>
        );
      })}
    </Stack>
  );
}

/** The file's bytes as base64 (a data URL without its head). */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** A file picker whose file's text is the value: the server reads it as it reads an uploaded document. */
function FileTextInput({ testId, hasText, disabled, onText }: { testId: string; hasText: boolean; disabled: boolean; onText: (text: string) => void }) {
  const { t, i18n } = useTranslation();
  const picker = useRef<HTMLInputElement>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [readText, { loading }] = useMutation(FlowInputFileTextDocument);

  function clear() {
    setFileName(null);
    onText("");
    if (picker.current) picker.current.value = "";
  }

  async function read(file: File | undefined) {
    if (!file) return;
    clear();
    const tooBig = fileProblem(file.name, file.size);
    if (tooBig) return setProblem(t(tooBig.key, tooBig.params));
    setProblem(null);
    try {
      const { data } = await readText({ variables: { name: file.name, content: await base64Of(file) } });
      if (!data) return;
      setFileName(file.name);
      onText(data.flowInputFileText.text);
    } catch (error) {
      setProblem(describeError(error, i18n));
    }
  }

  return (
    <Stack gap="1" width="full">
      <HStack gap="2">
        <input ref={picker} type="file" hidden onChange={(event) => void read(event.target.files?.[0])} data-testid={testId} />
        <Button size="sm" variant="outline" disabled={disabled} loading={loading} onClick={() => picker.current?.click()} data-testid={`${testId}-pick`}>
          <LuFileText /> {t("flow.run.inputs.pickFile")}
        </Button>
        {fileName && hasText && (
          <HStack gap="1" minWidth="0" data-testid={`${testId}-chosen`}>
            <Text fontSize="sm" truncate title={fileName}>
              {fileName}
            </Text>
            <Button size="2xs" variant="ghost" aria-label={t("flow.run.inputs.removeFile")} onClick={clear}>
              <LuX />
            </Button>
          </HStack>
        )}
      </HStack>
      <Text fontSize="xs" color={problem ? "fg.error" : "fg.muted"} data-testid={problem ? `${testId}-problem` : undefined}>
        {problem ?? t("flow.run.inputs.fileHint")}
      </Text>
    </Stack>
  );
}
