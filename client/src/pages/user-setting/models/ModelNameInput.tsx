import { Combobox, Input, createListCollection } from "@chakra-ui/react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";

interface ModelNameInputProps {
  value: string;
  onChange: (value: string) => void;
  /** The provider's known models of the chosen type; any other name may be typed. */
  suggestions: string[];
  placeholder?: string;
}

/** A model name: free text, with the provider's catalogue of that type offered as it is typed. */
export function ModelNameInput({ value, onChange, suggestions, placeholder }: ModelNameInputProps) {
  const { t } = useTranslation();
  // While the list is open after a click, show every suggestion, not only those matching what is typed.
  const [showAll, setShowAll] = useState(true);
  const collection = useMemo(() => {
    const needle = value.trim().toLowerCase();
    const items = showAll || !needle ? suggestions : suggestions.filter((name) => name.toLowerCase().includes(needle));
    return createListCollection({ items });
  }, [suggestions, value, showAll]);

  if (suggestions.length === 0) {
    return <Input name="modelName" value={value} placeholder={placeholder} spellCheck={false} autoComplete="off" onChange={(event) => onChange(event.target.value)} />;
  }

  return (
    <Combobox.Root
      collection={collection}
      inputValue={value}
      onOpenChange={(details) => details.open && details.reason !== "input-change" && setShowAll(true)}
      onInputValueChange={(details) => {
        if (details.reason === "input-change") setShowAll(false);
        onChange(details.inputValue);
      }}
      onValueChange={(details) => details.value[0] !== undefined && onChange(details.value[0])}
      allowCustomValue
      openOnClick
      selectionBehavior="replace"
      positioning={{ sameWidth: true }}
      translations={{ triggerLabel: t("models.dialog.showSuggestions") }}
    >
      <Combobox.Control>
        <Combobox.Input name="modelName" placeholder={placeholder} spellCheck={false} autoComplete="off" />
        <Combobox.IndicatorGroup>
          <Combobox.Trigger />
        </Combobox.IndicatorGroup>
      </Combobox.Control>
      {/* Not portalled: inside a dialog the list must stay within the dialog's focus trap. */}
      <Combobox.Positioner>
        <Combobox.Content maxHeight="60" data-testid="model-name-suggestions">
          <Combobox.Empty px="3" py="2" fontSize="sm" color="fg.muted">
            {t("models.dialog.customName")}
          </Combobox.Empty>
          {collection.items.map((name) => (
            <Combobox.Item key={name} item={name} fontFamily="mono" fontSize="sm">
              {name}
              <Combobox.ItemIndicator />
            </Combobox.Item>
          ))}
        </Combobox.Content>
      </Combobox.Positioner>
    </Combobox.Root>
  );
}
