import { NativeSelect } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { isOffered, type ReferenceGroup } from "../references";

interface ReferenceSelectProps {
  value: string;
  groups: ReferenceGroup[];
  onChange: (value: string) => void;
  invalid?: boolean;
  testId: string;
  label: string;
}

/** One reference from the variable picker's groups; a stored one it no longer offers stays visible, marked. */
export function ReferenceSelect({ value, groups, onChange, invalid, testId, label }: ReferenceSelectProps) {
  const { t } = useTranslation();
  const stale = value !== "" && !isOffered(value, groups);
  return (
    <NativeSelect.Root size="sm" flex="1" minWidth="0" invalid={invalid || stale}>
      <NativeSelect.Field value={value} onChange={(event) => onChange(event.target.value)} aria-label={label} data-testid={testId}>
        <option value="">{t("flow.form.references.choose")}</option>
        {stale && <option value={value}>{t("flow.form.references.stale", { reference: value })}</option>}
        {groups.map((group) => (
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
  );
}
