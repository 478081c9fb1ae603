import { useTranslation } from "react-i18next";
import { problemText } from "../../../../errors";
import { isBuiltinChatModel, ModelOptionSelect } from "../../../../components/ModelOptionSelect";
import { ModelSettings } from "../../../../components/ModelSettings";
import { humanize, type ParamSpecView } from "../../../../components/paramForm.logic";
import { freedomOfParams, presetParams } from "../modelSettings";
import { MODEL_SETTING_KEYS } from "../nodeForm.logic";
import type { WidgetProps } from "../widgetContext";
import { FieldFrame } from "./FieldFrame";

/**
 * A node's chat model and its settings, as a chat assistant's (the freedom presets set temperature, top P and the
 * penalties), with RAGFlow's switch beside each value: off is "not set" (null), the model's own default.
 */
export function ModelSettingsField(props: WidgetProps) {
  const { t, i18n } = useTranslation();
  const { path, value, onChange, context } = props;
  const choices = context.choices;
  const presets = choices?.assistantDefaults.freedomPresets ?? [];
  const modelId = typeof value === "string" ? value : "";
  const builtin = isBuiltinChatModel(modelId || (choices?.defaultModels.chat ?? ""), choices);
  const settings = context.component.params.filter((spec) => (MODEL_SETTING_KEYS as readonly string[]).includes(spec.key)) as ParamSpecView[];
  // The draft holds numbers as typed; blank is "not set".
  const textOf = (key: string) => (context.draft[key] === null || context.draft[key] === undefined ? "" : String(context.draft[key]));
  const values = Object.fromEntries(settings.map((spec) => [spec.key, textOf(spec.key).trim() === "" ? null : Number(textOf(spec.key))]));
  const freedom = freedomOfParams(values, presets);

  function choosePreset(name: string) {
    const preset = presets.find((candidate) => candidate.name === name);
    if (preset) context.patch(Object.fromEntries(Object.entries(presetParams(preset)).map(([key, n]) => [key, String(n)])));
  }

  return (
    <ModelSettings
      model={
        <FieldFrame {...props}>
          <ModelOptionSelect
            name={path}
            value={modelId}
            models={choices?.chatModels ?? []}
            emptyLabel={t("flow.form.model.default", { model: choices?.defaultModels.chat ?? "" })}
            onChange={onChange}
            testId={`flow-form-${path}`}
          />
        </FieldFrame>
      }
      builtinNote={builtin ? { text: t("flow.form.model.builtinNote"), testId: "flow-form-builtin-model-note" } : null}
      freedom={{ value: freedom, onChoose: choosePreset, disabled: builtin, testId: "flow-form-freedom" }}
      settings={settings.map((spec) => ({
        key: spec.key,
        label: t(spec.label, { defaultValue: humanize(spec.key) }),
        error: problemText(i18n, context.problems[spec.key]),
        text: textOf(spec.key),
        onChange: (text: string) => context.patch({ [spec.key]: text }),
        min: spec.min ?? 0,
        max: spec.max ?? undefined,
        step: spec.step ?? (spec.type === "integer" ? 1 : 0.01),
        slider: spec.type === "number",
        optional: { fallback: typeof spec.default === "number" ? spec.default : (spec.min ?? 0) },
        disabled: builtin && spec.key !== "max_tokens",
        testId: `flow-form-${spec.key}`,
      }))}
    />
  );
}
