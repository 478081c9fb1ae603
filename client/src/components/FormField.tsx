import { Field } from "@chakra-ui/react";
import type { ReactNode } from "react";

interface FormFieldProps {
  label: string;
  error?: string;
  helper?: string;
  required?: boolean;
  /** Disables the input inside (Chakra's inputs read it from the field). */
  disabled?: boolean;
  children: ReactNode;
}

/** A labelled input with its error (from the client's checks or the server's field problems) shown beneath it. */
export function FormField({ label, error, helper, required, disabled, children }: FormFieldProps) {
  return (
    <Field.Root invalid={!!error} required={required} disabled={disabled}>
      <Field.Label>
        {label}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
      {children}
      {error ? <Field.ErrorText>{error}</Field.ErrorText> : helper && <Field.HelperText>{helper}</Field.HelperText>}
    </Field.Root>
  );
}
