import { Field, HStack, IconButton, Stack, Text } from "@chakra-ui/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LuPlus, LuTrash2 } from "react-icons/lu";
import { humanize } from "../../../../components/paramForm.logic";
import type { WidgetProps } from "../widgetContext";

/** A flow widget's label, help and problem (the param's own; its items show theirs), as <FormField> draws a plain input's. */
export function FieldFrame({ spec, problemAt, children, action }: Pick<WidgetProps, "spec" | "problemAt"> & { children: ReactNode; action?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const error = problemAt();
  const help = spec.help && i18n.exists(spec.help) ? t(spec.help) : undefined;
  return (
    <Field.Root invalid={!!error}>
      <HStack justify="space-between" width="full">
        <Field.Label>{t(spec.label, { defaultValue: humanize(spec.key) })}</Field.Label>
        {action}
      </HStack>
      <Stack gap="2" width="full">
        {children}
      </Stack>
      {error ? <Field.ErrorText>{error}</Field.ErrorText> : help && <Field.HelperText>{help}</Field.HelperText>}
    </Field.Root>
  );
}

/** The "+ Add" of a list widget. */
export function AddButton({ label, onClick, testId }: { label: string; onClick: () => void; testId: string }) {
  return (
    <IconButton size="xs" variant="ghost" colorPalette="brand" aria-label={label} title={label} onClick={onClick} data-testid={testId}>
      <LuPlus />
    </IconButton>
  );
}

export function RemoveButton({ onClick, testId, label }: { onClick: () => void; testId: string; label?: string }) {
  const { t } = useTranslation();
  const text = label ?? t("common.delete");
  return (
    <IconButton size="xs" variant="ghost" colorPalette="red" aria-label={text} title={text} onClick={onClick} data-testid={testId} flexShrink={0}>
      <LuTrash2 />
    </IconButton>
  );
}

/** A problem of one item of a list widget. */
export function ItemProblem({ text }: { text: string | undefined }) {
  if (!text) return null;
  return (
    <Text fontSize="xs" color="fg.error" role="alert">
      {text}
    </Text>
  );
}

/** What an empty list widget says. */
export function EmptyHint({ text }: { text: string }) {
  return (
    <Text fontSize="sm" color="fg.muted">
      {text}
    </Text>
  );
}
