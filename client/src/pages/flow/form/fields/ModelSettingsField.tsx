import { Alert, HStack, Input, NativeSelect, Slider, Stack, Switch, Text } from "@chakra-ui/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { problemText } from "../../../../errors";
import { CUSTOM_FREEDOM, FREEDOMS } from "../../../../components/freedom";
import { isBuiltinChatModel, ModelOptionSelect } from "../../../../components/ModelOptionSelect";
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
    <Stack gap="4">
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
      {builtin && (
        <Alert.Root status="info" size="sm" data-testid="flow-form-builtin-model-note">
          <Alert.Indicator />
          <Alert.Title fontWeight="normal">{t("flow.form.model.builtinNote")}</Alert.Title>
        </Alert.Root>
      )}
      <Stack gap="3" borderWidth="1px" borderColor="border.muted" rounded="l2" p="3">
        <HStack justify="space-between" gap="3">
          <Text fontSize="sm" fontWeight="medium">
            {t("flow.form.model.freedom")}
          </Text>
          <NativeSelect.Root size="sm" width="40" disabled={builtin}>
            <NativeSelect.Field value={freedom} onChange={(event) => choosePreset(event.target.value)} data-testid="flow-form-freedom">
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
        </HStack>
        {settings.map((spec) => (
          <SettingRow key={spec.key} spec={spec} disabled={builtin && spec.key !== "max_tokens"} text={textOf(spec.key)} onChange={(text) => context.patch({ [spec.key]: text })} problem={problemText(i18n, context.problems[spec.key])} />
        ))}
      </Stack>
    </Stack>
  );
}

/** One value and its switch; `disabled` where the model ignores it (the built-in one samples nothing, yet honours max tokens). */
function SettingRow({ spec, text, onChange, problem, disabled }: { spec: ParamSpecView; text: string; onChange: (text: string) => void; problem: string | undefined; disabled: boolean }) {
  const { t } = useTranslation();
  const label = t(spec.label, { defaultValue: humanize(spec.key) });
  // Switched on, a value may be blank while it is retyped (blank is stored as "not set"); a value set elsewhere switches it on.
  const [switchedOn, setSwitchedOn] = useState(text.trim() !== "");
  const on = switchedOn || text.trim() !== "";
  const min = spec.min ?? 0;
  const max = spec.max ?? 1;
  const fallback = typeof spec.default === "number" ? spec.default : min;
  const slider = spec.type === "number";
  return (
    <Stack gap="1">
      <HStack gap="3">
        <Switch.Root size="sm" disabled={disabled} checked={on} onCheckedChange={(details) => {
            setSwitchedOn(details.checked);
            onChange(details.checked ? String(fallback) : "");
          }} colorPalette="brand" width="40" flexShrink={0} data-testid={`flow-form-${spec.key}-on`}>
          <Switch.HiddenInput />
          <Switch.Control />
          <Switch.Label fontWeight="normal">{label}</Switch.Label>
        </Switch.Root>
        {on && slider && (
          <Slider.Root flex="1" size="sm" disabled={disabled} min={min} max={max} step={spec.step ?? 0.01} value={[Number(text) || 0]} onValueChange={(details) => onChange(String(Math.round(details.value[0] * 100) / 100))} colorPalette="brand" aria-label={[label]} data-testid={`flow-form-${spec.key}`}>
            <Slider.Control>
              <Slider.Track>
                <Slider.Range />
              </Slider.Track>
              <Slider.Thumbs />
            </Slider.Control>
          </Slider.Root>
        )}
        {on && (
          <Input
            size="xs"
            type="number"
            disabled={disabled}
            width={slider ? "16" : "24"}
            min={min}
            max={max}
            step={spec.step ?? (spec.type === "integer" ? 1 : 0.01)}
            value={text}
            onChange={(event) => onChange(event.target.value)}
            aria-label={label}
            data-testid={`flow-form-${spec.key}-value`}
          />
        )}
        {!on && (
          <Text fontSize="xs" color="fg.muted">
            {t("flow.form.model.notSet")}
          </Text>
        )}
      </HStack>
      {problem && (
        <Text fontSize="xs" color="fg.error">
          {problem}
        </Text>
      )}
    </Stack>
  );
}
