import { useTranslation } from "react-i18next";
import { FormField } from "../../../components/FormField";
import type { AssistantFormChoicesQuery } from "../../../graphql/gql/graphql";
import { freedomOf } from "../../../components/freedom";
import { ModelSettings } from "../../../components/ModelSettings";
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
    <ModelSettings
      model={
        <FormField label={t("chat.settings.model")} required error={error("chatModel")} helper={t("chat.settings.modelHelp")}>
          <ModelOptionSelect name="chatModel" value={draft.chatModel} models={choices?.chatModels ?? []} placeholder={t("chat.settings.modelPlaceholder")} onChange={(value) => edit("chatModel", value)} testId="assistant-model" />
        </FormField>
      }
      builtinNote={builtin ? { text: t("chat.settings.builtinModelNote"), testId: "assistant-builtin-model-note" } : null}
      freedom={{ value: draft.freedom, onChoose: choosePreset, help: samplingHelp("chat.settings.freedomHelp"), error: error("freedom"), disabled: builtin, testId: "assistant-freedom" }}
      settings={[
        ...SAMPLING.map((key) => ({
          key,
          label: t(`chat.settings.${key}`),
          help: samplingHelp(`chat.settings.${key}Help`),
          error: error(key),
          text: String(draft[key]),
          onChange: (text: string) => setSampling(key, Number(text)),
          min: 0,
          max: 1,
          step: 0.01,
          slider: true,
          disabled: builtin,
          testId: `assistant-${key}`,
        })),
        { key: "maxTokens", label: t("chat.settings.maxTokens"), help: t("chat.settings.maxTokensHelp"), error: error("maxTokens"), text: draft.maxTokens, onChange: (text: string) => edit("maxTokens", text), min: 1, step: 1, slider: false, disabled: false, testId: "assistant-max-tokens" },
      ]}
    />
  );
}
