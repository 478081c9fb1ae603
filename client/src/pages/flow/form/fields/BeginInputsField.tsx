import { HStack, Input, NativeSelect, Stack, Switch, Textarea } from "@chakra-ui/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { problemText } from "../../../../errors";
import { addInput, beginInputsOf, INPUT_TYPES, inputProblems, optionsFromText, removeInput, setInput, type BeginInput, type InputType } from "../beginInputs";
import type { WidgetProps } from "../widgetContext";
import { AddButton, EmptyHint, FieldFrame, ItemProblem, RemoveButton } from "./FieldFrame";

/** Begin's inputs: what a run asks for (RAGFlow's query table), each read elsewhere as `begin@key`. */
export function BeginInputsField(props: WidgetProps) {
  const { t, i18n } = useTranslation();
  const { path, value, onChange, problemAt } = props;
  const inputs = beginInputsOf(value);
  const local = inputProblems(inputs);
  const set = (next: BeginInput[]) => onChange(next);
  return (
    <FieldFrame {...props} action={<AddButton label={t("flow.form.begin.add")} onClick={() => set(addInput(inputs))} testId={`flow-form-${path}-add`} />}>
      {inputs.length === 0 && <EmptyHint text={t("flow.form.begin.none")} />}
      {inputs.map((input, i) => {
        const problem = problemText(i18n, local[i]) ?? problemAt(String(i));
        return (
          <Stack key={i} gap="2" borderWidth="1px" borderColor={problem ? "border.error" : "border.muted"} rounded="l2" p="2.5" data-testid={`flow-form-${path}-${i}`}>
            <HStack gap="2">
              <Input size="sm" width="32" flexShrink={0} fontFamily="mono" placeholder={t("flow.form.begin.key")} value={input.key} onChange={(event) => set(setInput(inputs, i, { key: event.target.value }))} aria-label={t("flow.form.begin.key")} data-testid={`flow-form-${path}-${i}-key`} />
              <Input size="sm" flex="1" placeholder={t("flow.form.begin.name")} value={input.name} onChange={(event) => set(setInput(inputs, i, { name: event.target.value }))} aria-label={t("flow.form.begin.name")} data-testid={`flow-form-${path}-${i}-name`} />
              <RemoveButton onClick={() => set(removeInput(inputs, i))} testId={`flow-form-${path}-${i}-remove`} />
            </HStack>
            <HStack gap="3">
              <NativeSelect.Root size="sm" flex="1">
                <NativeSelect.Field value={input.type} onChange={(event) => set(setInput(inputs, i, { type: event.target.value as InputType }))} aria-label={t("flow.form.begin.type")} data-testid={`flow-form-${path}-${i}-type`}>
                  {INPUT_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {t(`flow.components.Begin.inputTypes.${type}`)}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
              <Switch.Root size="sm" checked={input.optional} onCheckedChange={(details) => set(setInput(inputs, i, { optional: details.checked }))} colorPalette="brand" data-testid={`flow-form-${path}-${i}-optional`}>
                <Switch.HiddenInput />
                <Switch.Control />
                <Switch.Label fontWeight="normal">{t("flow.form.begin.optional")}</Switch.Label>
              </Switch.Root>
            </HStack>
            {input.type === "options" && <OptionsInput options={input.options} onChange={(options) => set(setInput(inputs, i, { options }))} testId={`flow-form-${path}-${i}-options`} />}
            <ItemProblem text={problem} />
          </Stack>
        );
      })}
    </FieldFrame>
  );
}

/** Options one a line; the text is kept as typed (an empty line being written) while the options are stored clean. */
function OptionsInput({ options, onChange, testId }: { options: string[]; onChange: (options: string[]) => void; testId: string }) {
  const { t } = useTranslation();
  const [text, setText] = useState(options.join("\n"));
  // Options changed elsewhere (an undo) replace the text; the user's own typing never does.
  const shown = optionsFromText(text).join("\n") === options.join("\n") ? text : options.join("\n");
  return (
    <Textarea
      size="sm"
      rows={3}
      autoresize
      placeholder={t("flow.form.begin.optionsPlaceholder")}
      value={shown}
      onChange={(event) => {
        setText(event.target.value);
        onChange(optionsFromText(event.target.value));
      }}
      aria-label={t("flow.form.begin.options")}
      data-testid={testId}
    />
  );
}
