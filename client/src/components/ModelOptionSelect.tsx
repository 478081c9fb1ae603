import { NativeSelect } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import type { AvailableModelOptionFragment } from "../graphql/gql/graphql";

/** Whether the chosen chat model is Cairn's built-in extractive one, which picks sentences and writes nothing. */
export function isBuiltinChatModel(modelId: string, choices: { chatModels: AvailableModelOptionFragment[] } | undefined): boolean {
  return choices?.chatModels.find((model) => model.id === modelId)?.builtin ?? false;
}

interface ModelOptionSelectProps {
  name: string;
  value: string;
  models: AvailableModelOptionFragment[];
  /** The label of the empty choice; without it a model must be chosen. */
  emptyLabel?: string;
  placeholder?: string;
  onChange: (value: string) => void;
  testId?: string;
}

/** A model by its `name@Provider` id; a stored id that is no longer offered stays visible rather than silently changing. */
export function ModelOptionSelect({ name, value, models, emptyLabel, placeholder, onChange, testId }: ModelOptionSelectProps) {
  const { t } = useTranslation();
  const known = value === "" || models.some((model) => model.id === value);
  return (
    <NativeSelect.Root>
      <NativeSelect.Field name={name} value={value} onChange={(event) => onChange(event.target.value)} data-testid={testId}>
        {emptyLabel !== undefined ? <option value="">{emptyLabel}</option> : value === "" && <option value="">{placeholder ?? ""}</option>}
        {!known && <option value={value}>{value}</option>}
        {models.map((model) => (
          <option key={model.id} value={model.id}>
            {model.builtin ? t("kb.config.builtinModel", { model: model.modelName }) : `${model.modelName} · ${model.provider}`}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}
