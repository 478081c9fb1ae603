import { Switch, Text } from "@chakra-ui/react";

/** An on/off setting with its explanation under the label. */
export function SettingSwitch({ label, help, checked, onChange, testId }: { label: string; help?: string; checked: boolean; onChange: (checked: boolean) => void; testId?: string }) {
  return (
    <Switch.Root checked={checked} onCheckedChange={(details) => onChange(details.checked)} colorPalette="brand" alignItems="flex-start" data-testid={testId}>
      <Switch.HiddenInput />
      <Switch.Control mt="0.5" />
      <Switch.Label>
        {label}
        {help && (
          <Text as="span" display="block" fontSize="xs" color="fg.muted" fontWeight="normal">
            {help}
          </Text>
        )}
      </Switch.Label>
    </Switch.Root>
  );
}
