import { HStack, Input, SegmentGroup, Stack } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import {
  duplicateKeys,
  freeKey,
  inputVariablesOf,
  isReferenceVariable,
  keyFor,
  keyValueVariablesOf,
  parametersOf,
  removeAt,
  replaceAt,
  switchInputVariable,
  switchKeyValueVariable,
  type InputVariable,
  type KeyValueVariable,
  type Parameter,
} from "../variables";
import type { WidgetProps } from "../widgetContext";
import { AddButton, EmptyHint, FieldFrame, ItemProblem, RemoveButton } from "./FieldFrame";
import { ReferenceSelect } from "./ReferenceSelect";

/**
 * The variable lists: input variables (`query`), parameters (`{key}` ← a reference) and Invoke's variables (a key
 * with a reference or a fixed text). Each row's problem is the server's at `<param>.<row>` (or a part of it).
 */

/** Reference or fixed text, as a two-way switch before a row's value. */
function SourceSwitch({ reference, onChange, testId }: { reference: boolean; onChange: (reference: boolean) => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <SegmentGroup.Root size="xs" value={reference ? "reference" : "text"} onValueChange={(details) => onChange(details.value === "reference")} data-testid={testId} flexShrink={0}>
      <SegmentGroup.Indicator />
      <SegmentGroup.Items
        items={[
          { value: "reference", label: t("flow.form.variables.reference") },
          { value: "text", label: t("flow.form.variables.text") },
        ]}
      />
    </SegmentGroup.Root>
  );
}

export function InputVariablesField(props: WidgetProps) {
  const { t } = useTranslation();
  const { path, value, onChange, problemAt, context } = props;
  const variables = inputVariablesOf(value);
  const set = (next: InputVariable[]) => onChange(next);
  return (
    <FieldFrame {...props} action={<AddButton label={t("flow.form.variables.add")} onClick={() => set([...variables, { type: "reference", component_id: "" }])} testId={`flow-form-${path}-add`} />}>
      {variables.length === 0 && <EmptyHint text={t("flow.form.variables.noneRead")} />}
      {variables.map((variable, i) => (
        <Stack key={i} gap="1">
          <HStack gap="2">
            <SourceSwitch reference={variable.type === "reference"} onChange={() => set(replaceAt(variables, i, switchInputVariable(variable)))} testId={`flow-form-${path}-${i}-source`} />
            {variable.type === "reference" ? (
              <ReferenceSelect value={variable.component_id} groups={context.groups} onChange={(id) => set(replaceAt(variables, i, { type: "reference", component_id: id }))} invalid={!!problemAt(String(i))} label={t("flow.form.variables.reference")} testId={`flow-form-${path}-${i}`} />
            ) : (
              <Input size="sm" flex="1" value={variable.value} onChange={(event) => set(replaceAt(variables, i, { type: "input", value: event.target.value }))} aria-label={t("flow.form.variables.text")} data-testid={`flow-form-${path}-${i}-text`} />
            )}
            <RemoveButton onClick={() => set(removeAt(variables, i))} testId={`flow-form-${path}-${i}-remove`} />
          </HStack>
          <ItemProblem text={problemAt(String(i))} />
        </Stack>
      ))}
    </FieldFrame>
  );
}

/** `{key}` ← a reference: Generate's prompt parameters, Template's and Code's parameters. */
export function ParametersField(props: WidgetProps) {
  const { t } = useTranslation();
  const { path, value, onChange, problemAt, context } = props;
  const parameters = parametersOf(value);
  const duplicates = duplicateKeys(parameters);
  const set = (next: Parameter[]) => onChange(next);
  const choose = (i: number, reference: string) => {
    const current = parameters[i];
    // A row chosen before it is named takes its reference's name as key.
    const key = current.key || freeKey(parameters.map((p) => p.key), keyFor(reference));
    set(replaceAt(parameters, i, { key, component_id: reference }));
  };
  return (
    <FieldFrame {...props} action={<AddButton label={t("flow.form.variables.add")} onClick={() => set([...parameters, { key: "", component_id: "" }])} testId={`flow-form-${path}-add`} />}>
      {parameters.length === 0 && <EmptyHint text={t("flow.form.variables.noParameters")} />}
      {parameters.map((parameter, i) => {
        const problem = problemAt(String(i)) ?? problemAt(`${i}.key`) ?? (duplicates.has(i) ? t("flow.errors.parameterKeyDuplicate", { key: parameter.key }) : undefined);
        return (
          <Stack key={i} gap="1">
            <HStack gap="2">
              <Input size="sm" width="28" flexShrink={0} fontFamily="mono" placeholder={t("flow.form.variables.key")} value={parameter.key} aria-invalid={!!problem || undefined} onChange={(event) => set(replaceAt(parameters, i, { ...parameter, key: event.target.value.replace(/[\s{}]/g, "") }))} aria-label={t("flow.form.variables.key")} data-testid={`flow-form-${path}-${i}-key`} />
              <ReferenceSelect value={parameter.component_id} groups={context.groups} onChange={(reference) => choose(i, reference)} invalid={!!problem && parameter.component_id === ""} label={t("flow.form.variables.reference")} testId={`flow-form-${path}-${i}`} />
              <RemoveButton onClick={() => set(removeAt(parameters, i))} testId={`flow-form-${path}-${i}-remove`} />
            </HStack>
            <ItemProblem text={problem} />
          </Stack>
        );
      })}
    </FieldFrame>
  );
}

/** Invoke's variables: sent as the query, JSON body or form, each a reference or a fixed text. */
export function KeyValueReferencesField(props: WidgetProps) {
  const { t } = useTranslation();
  const { path, value, onChange, problemAt, context } = props;
  const variables = keyValueVariablesOf(value);
  const set = (next: KeyValueVariable[]) => onChange(next);
  return (
    <FieldFrame {...props} action={<AddButton label={t("flow.form.variables.add")} onClick={() => set([...variables, { key: "", component_id: "" }])} testId={`flow-form-${path}-add`} />}>
      {variables.length === 0 && <EmptyHint text={t("flow.form.variables.noVariables")} />}
      {variables.map((variable, i) => (
        <Stack key={i} gap="1" borderWidth="1px" borderColor="border.muted" rounded="l2" p="2">
          <HStack gap="2">
            <Input size="sm" flex="1" fontFamily="mono" placeholder={t("flow.form.variables.key")} value={variable.key} onChange={(event) => set(replaceAt(variables, i, { ...variable, key: event.target.value }))} aria-label={t("flow.form.variables.key")} data-testid={`flow-form-${path}-${i}-key`} />
            <SourceSwitch reference={isReferenceVariable(variable)} onChange={() => set(replaceAt(variables, i, switchKeyValueVariable(variable)))} testId={`flow-form-${path}-${i}-source`} />
            <RemoveButton onClick={() => set(removeAt(variables, i))} testId={`flow-form-${path}-${i}-remove`} />
          </HStack>
          {isReferenceVariable(variable) ? (
            <ReferenceSelect value={variable.component_id} groups={context.groups} onChange={(id) => set(replaceAt(variables, i, { key: variable.key, component_id: id }))} label={t("flow.form.variables.reference")} testId={`flow-form-${path}-${i}`} />
          ) : (
            <Input size="sm" value={variable.value} onChange={(event) => set(replaceAt(variables, i, { key: variable.key, value: event.target.value }))} aria-label={t("flow.form.variables.text")} data-testid={`flow-form-${path}-${i}-text`} />
          )}
          <ItemProblem text={problemAt(String(i))} />
        </Stack>
      ))}
    </FieldFrame>
  );
}
