import { Alert, HStack, Input, NativeSelect, Slider, Stack, Switch, Text } from "@chakra-ui/react";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { FormField } from "./FormField";
import { CUSTOM_FREEDOM, FREEDOMS } from "./freedom";

/** One setting of a chat model: a sampling value (drawn with a slider) or a limit such as max tokens. */
export interface ModelSetting {
  key: string;
  label: string;
  help?: string;
  error?: string;
  /** The value as typed; "" is "not set" where the setting is optional. */
  text: string;
  onChange: (text: string) => void;
  min: number;
  /** Sliders need one. */
  max?: number;
  step: number;
  slider: boolean;
  /** A switch beside it (RAGFlow's in a flow node): off is "not set", the model's own default; on starts at `fallback`. */
  optional?: { fallback: number };
  /** The model ignores it (the built-in one samples nothing, yet honours max tokens). */
  disabled: boolean;
  /** The slider's (or the lone input's); `${testId}-value` is the input beside a slider, `${testId}-on` the switch. */
  testId: string;
}

interface ModelSettingsProps {
  /** The model picker, framed as its form frames a field. */
  model: ReactNode;
  /** The built-in model is chosen: a note says what it does not do, and the settings it ignores are disabled. */
  builtinNote: { text: string; testId: string } | null;
  /** The preset (improvise, precise, balance) the four sampling values match, "custom" otherwise; choosing one sets them. */
  freedom: { value: string; onChoose: (name: string) => void; help?: string; error?: string; disabled: boolean; testId: string };
  settings: ModelSetting[];
}

/** A chat model and its settings, as a chat assistant and a flow node set them (§3: the freedom presets, then each value). */
export function ModelSettings({ model, builtinNote, freedom, settings }: ModelSettingsProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="5">
      {model}
      {builtinNote && (
        <Alert.Root status="info" size="sm" data-testid={builtinNote.testId}>
          <Alert.Indicator />
          <Alert.Title fontWeight="normal">{builtinNote.text}</Alert.Title>
        </Alert.Root>
      )}
      <FormField label={t("chat.settings.freedom")} error={freedom.error} helper={freedom.help} disabled={freedom.disabled}>
        <NativeSelect.Root disabled={freedom.disabled}>
          <NativeSelect.Field name="freedom" value={freedom.value} onChange={(event) => freedom.onChoose(event.target.value)} data-testid={freedom.testId}>
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
      {settings.map((setting) => (
        <SettingField key={setting.key} setting={setting} />
      ))}
    </Stack>
  );
}

function SettingField({ setting }: { setting: ModelSetting }) {
  const { t } = useTranslation();
  const { label, text, onChange, min, max, step, optional, disabled, testId } = setting;
  // Switched on, a value may be blank while it is retyped (blank is stored as "not set"); a value set elsewhere switches it on.
  const [switchedOn, setSwitchedOn] = useState(text.trim() !== "");
  const on = !optional || switchedOn || text.trim() !== "";
  // What the input shows while it is typed ("0." on the way to "0.5"), as long as it means the value.
  const [typed, setTyped] = useState(text);
  const shown = typed.trim() !== "" && Number(typed) === Number(text) ? typed : text;
  return (
    <FormField label={label} required={!optional} error={setting.error} helper={setting.help} disabled={disabled}>
      <HStack gap="3" width="full">
        {optional && (
          <Switch.Root
            size="sm"
            disabled={disabled}
            checked={on}
            onCheckedChange={(details) => {
              setSwitchedOn(details.checked);
              onChange(details.checked ? String(optional.fallback) : "");
            }}
            colorPalette="brand"
            aria-label={label}
            data-testid={`${testId}-on`}
          >
            <Switch.HiddenInput />
            <Switch.Control />
          </Switch.Root>
        )}
        {on && setting.slider && (
          <Slider.Root flex="1" size="sm" disabled={disabled} min={min} max={max ?? 1} step={step} value={[Number(text) || 0]} onValueChange={(details) => onChange(String(Math.round(details.value[0] * 100) / 100))} colorPalette="brand" aria-label={[label]} data-testid={testId}>
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
            size="sm"
            type="number"
            disabled={disabled}
            width={setting.slider ? "20" : { base: "full", md: "48" }}
            min={min}
            max={max}
            step={step}
            value={shown}
            onChange={(event) => {
              setTyped(event.target.value);
              onChange(event.target.value);
            }}
            aria-label={label}
            data-testid={setting.slider ? `${testId}-value` : testId}
          />
        )}
        {!on && (
          <Text fontSize="sm" color="fg.muted">
            {t("flow.form.model.notSet")}
          </Text>
        )}
      </HStack>
    </FormField>
  );
}
