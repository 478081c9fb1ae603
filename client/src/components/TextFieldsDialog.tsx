import { Button, CloseButton, Dialog, Input, Portal, Stack } from "@chakra-ui/react";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { FormField } from "./FormField";
import { fieldProblemsOf, hasNoProblems, problemText, type FieldProblems, type Problem } from "../errors";

export interface TextField {
  /** The input's name, and the field the server names in its problems. */
  name: string;
  label: string;
  placeholder?: string;
  required?: boolean;
  /** The message key shown when a required field is left empty. */
  requiredKey?: string;
  /** A check of the typed value, run before the request. */
  check?: (value: string) => Problem | undefined;
  initial?: string;
  type?: string;
  /** A hint under the field, e.g. what the server keeps as it is. */
  helper?: string;
}

interface TextFieldsDialogProps {
  open: boolean;
  title: string;
  fields: TextField[];
  submitLabel?: string;
  testId?: string;
  onClose: () => void;
  /** Performs the action; a thrown server error with field problems is shown under its fields. */
  onSubmit: (values: Record<string, string>) => Promise<void>;
  /** Turns a failure without field problems into the text shown above the buttons. */
  describeFailure: (failure: unknown) => string;
  /** The field problems of a failure, for errors the server raises without naming a field (a name taken). */
  problemsOf?: (failure: unknown) => FieldProblems;
}

/** A small dialog of one or a few text inputs: create a knowledge base, rename, new empty file, web crawl. */
export function TextFieldsDialog({ open, title, fields, submitLabel, testId, onClose, onSubmit, describeFailure, problemsOf = fieldProblemsOf }: TextFieldsDialogProps) {
  const { t, i18n } = useTranslation();
  const [values, setValues] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<FieldProblems>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setValues(Object.fromEntries(fields.map((field) => [field.name, field.initial ?? ""])));
    setProblems({});
    setFailure(null);
    // The fields of an opening dialog are read once; later renders must not wipe what the user typed.
  }, [open]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: FieldProblems = {};
    for (const field of fields) {
      const value = (values[field.name] ?? "").trim();
      if (field.required && !value) found[field.name] = { key: field.requiredKey ?? "errors.knowledge.required" };
      else if (value && field.check) found[field.name] = field.check(value);
    }
    setProblems(found);
    if (!hasNoProblems(found)) return;
    setBusy(true);
    setFailure(null);
    try {
      await onSubmit(values);
      onClose();
    } catch (error) {
      const fromServer = problemsOf(error);
      const known = Object.fromEntries(Object.entries(fromServer).filter(([name]) => fields.some((field) => field.name === name)));
      if (hasNoProblems(known)) setFailure(describeFailure(error));
      else setProblems(known);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(event) => !event.open && !busy && onClose()} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content asChild data-testid={testId}>
            <form onSubmit={(event: FormEvent) => void submit(event)} noValidate>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                {fields.map((field, index) => (
                  <FormField key={field.name} label={field.label} required={field.required} error={problemText(i18n, problems[field.name])} helper={field.helper}>
                    <Input
                      name={field.name}
                      type={field.type ?? "text"}
                      autoFocus={index === 0}
                      placeholder={field.placeholder}
                      value={values[field.name] ?? ""}
                      onChange={(event) => {
                        const value = event.target.value;
                        setValues((current) => ({ ...current, [field.name]: value }));
                        setProblems((current) => ({ ...current, [field.name]: undefined }));
                      }}
                    />
                  </FormField>
                ))}
                {failure && (
                  <Stack role="alert" color="fg.error" fontSize="sm">
                    {failure}
                  </Stack>
                )}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} disabled={busy}>
                {t("common.cancel")}
              </Button>
              <Button type="submit" colorPalette="brand" loading={busy} data-testid={testId ? `${testId}-submit` : undefined}>
                {submitLabel ?? t("common.save")}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild disabled={busy}>
              <CloseButton size="sm" aria-label={t("common.close")} />
            </Dialog.CloseTrigger>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
