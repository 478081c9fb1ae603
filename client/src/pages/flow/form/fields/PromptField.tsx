import { Button, HStack, NativeSelect, Textarea, Wrap } from "@chakra-ui/react";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { insertReference, parametersOf } from "../variables";
import type { WidgetProps } from "../widgetContext";
import { FieldFrame } from "./FieldFrame";

/**
 * A prompt with `{…}` placeholders: chips for the node's own parameter keys (or `{input}`, its default input, when
 * it has none), and the variable picker to insert any upstream output, Begin input or global at the caret.
 */
export function PromptField(props: WidgetProps) {
  const { t } = useTranslation();
  const { path, value, onChange, context } = props;
  const area = useRef<HTMLTextAreaElement>(null);
  const text = typeof value === "string" ? value : "";
  const keys = parametersOf(context.draft.parameters)
    .map((parameter) => parameter.key)
    .filter(Boolean);
  const chips = keys.length > 0 ? keys : ["input"];

  function insert(reference: string) {
    const caret = area.current?.selectionStart ?? text.length;
    const next = insertReference(text, reference, caret);
    onChange(next.text);
    requestAnimationFrame(() => {
      area.current?.focus();
      area.current?.setSelectionRange(next.caret, next.caret);
    });
  }

  return (
    <FieldFrame {...props}>
      <Textarea ref={area} size="sm" rows={8} autoresize maxHeight="80" value={text} onChange={(event) => onChange(event.target.value)} data-testid={`flow-form-${path}`} />
      <HStack gap="2" align="flex-start" justify="space-between">
        <Wrap gap="1.5">
          {chips.map((key) => (
            <Button key={key} size="2xs" variant="subtle" colorPalette="brand" fontFamily="mono" onClick={() => insert(key)} title={t("flow.form.prompt.insert", { reference: `{${key}}` })} data-testid={`flow-form-${path}-chip`}>
              {`{${key}}`}
            </Button>
          ))}
        </Wrap>
        <NativeSelect.Root size="xs" width="44" flexShrink={0}>
          <NativeSelect.Field
            value=""
            onChange={(event) => {
              if (event.target.value) insert(event.target.value);
            }}
            aria-label={t("flow.form.prompt.insertVariable")}
            data-testid={`flow-form-${path}-insert`}
          >
            <option value="">{t("flow.form.prompt.insertVariable")}</option>
            {context.groups.map((group) => (
              <optgroup key={group.label} label={group.label}>
                {group.options.map((option) => (
                  <option key={option.value} value={option.value}>
                    {`${group.label} · ${option.label}`}
                  </option>
                ))}
              </optgroup>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </HStack>
    </FieldFrame>
  );
}
