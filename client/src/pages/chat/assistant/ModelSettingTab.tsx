import { Alert, Input, NativeSelect, Stack } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { FormField } from "../../../components/FormField";
import type { AssistantFormChoicesQuery } from "../../../graphql/gql/graphql";
import { WeightSlider } from "../../../components/WeightSlider";
import { CUSTOM_FREEDOM, FREEDOMS, freedomOf } from "../../../components/freedom";
import type { AssistantDraft } from "./assistantDraft";
import type { DraftEditor } from "./draftEditor";
import { isBuiltinChatModel, ModelOptionSelect } from "../../../components/ModelOptionSelect";

type Sampling = "temperature" | "topP" | "presencePenalty" | "frequencyPenalty";
const SAMPLING: Sampling[] = ["temperature", "topP", "presencePenalty", "frequencyPenalty"];

export function ModelSettingTab({ draft, edit, error, choices }: DraftEditor & { choices: AssistantFormChoicesQuery | undefined }) {
  const { t } = useTranslation();
  const presets = choices?.assistantDefaults.freedomPresets ?? [];
  // The built-in extractive model samples nothing: it ignores the freedom, temperature, top P and the penalties (it does honour max tokens).
  const builtin = isBuiltinChatModel(draft.chatModel, choices);
  const samplingHelp = (key: string) => (builtin ? t("chat.settings.builtinIgnores") : t(key));

  /** A preset fills the four values (§3: improvise, precise, balance set temperature, top P and the penalties). */
  function choosePreset(name: string) {
    const preset = presets.find((candidate) => candidate.name === name);
    edit("freedom", name);
    if (!preset) return;
    for (const key of SAMPLING) edit(key, preset[key]);
  }

  function setSampling(key: Sampling, value: number) {
    edit(key, value);
    const next: Pick<AssistantDraft, Sampling> = { temperature: draft.temperature, topP: draft.topP, presencePenalty: draft.presencePenalty, frequencyPenalty: draft.frequencyPenalty, [key]: value };
    edit("freedom", freedomOf(next, presets));
  }

  return (
    <Stack gap="5">
      <FormField label={t("chat.settings.model")} required error={error("chatModel")} helper={t("chat.settings.modelHelp")}>
        <ModelOptionSelect name="chatModel" value={draft.chatModel} models={choices?.chatModels ?? []} placeholder={t("chat.settings.modelPlaceholder")} onChange={(value) => edit("chatModel", value)} testId="assistant-model" />
      </FormField>
      {builtin && (
        <Alert.Root status="info" size="sm" data-testid="assistant-builtin-model-note">
          <Alert.Indicator />
          <Alert.Title fontWeight="normal">{t("chat.settings.builtinModelNote")}</Alert.Title>
        </Alert.Root>
      )}
      <FormField label={t("chat.settings.freedom")} error={error("freedom")} helper={samplingHelp("chat.settings.freedomHelp")} disabled={builtin}>
        <NativeSelect.Root disabled={builtin}>
          <NativeSelect.Field name="freedom" value={draft.freedom} onChange={(event) => choosePreset(event.target.value)} data-testid="assistant-freedom">
            {FREEDOMS.map((name) => (
              <option key={name} value={name}>
                {t(`chat.settings.freedoms.${name}`)}
              </option>
            ))}
            <option value={CUSTOM_FREEDOM} disabled>
              {t("chat.settings.freedoms.custom")}
            </option>
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </FormField>
      {SAMPLING.map((key) => (
        <FormField key={key} label={t(`chat.settings.${key}`)} required error={error(key)} helper={samplingHelp(`chat.settings.${key}Help`)} disabled={builtin}>
          <WeightSlider value={draft[key]} onChange={(value) => setSampling(key, value)} label={t(`chat.settings.${key}`)} testId={`assistant-${key}`} disabled={builtin} />
        </FormField>
      ))}
      <FormField label={t("chat.settings.maxTokens")} required error={error("maxTokens")} helper={t("chat.settings.maxTokensHelp")}>
        <Input type="number" name="maxTokens" min={1} width={{ base: "full", md: "48" }} value={draft.maxTokens} onChange={(event) => edit("maxTokens", event.target.value)} data-testid="assistant-max-tokens" />
      </FormField>
    </Stack>
  );
}
