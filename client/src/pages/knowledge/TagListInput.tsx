import { Flex, Input, Tag } from "@chakra-ui/react";
import { useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";

interface TagListInputProps {
  value: string[];
  onChange: (value: string[]) => void;
  placeholder?: string;
  testId?: string;
}

/** A list of short words as removable tags; Enter or a comma adds what was typed. */
export function TagListInput({ value, onChange, placeholder, testId }: TagListInputProps) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState("");

  function add(text: string) {
    const words = text
      .split(/[,，\n]/)
      .map((word) => word.trim())
      .filter((word) => word && !value.includes(word));
    if (words.length > 0) onChange([...value, ...new Set(words)]);
    setTyped("");
  }

  function keyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Enter" || event.key === ",") {
      event.preventDefault();
      add(typed);
    } else if (event.key === "Backspace" && typed === "" && value.length > 0) {
      onChange(value.slice(0, -1));
    }
  }

  return (
    <Flex wrap="wrap" gap="1.5" align="center" borderWidth="1px" rounded="l2" px="2" py="1.5" minHeight="10" bg="bg" data-testid={testId} _focusWithin={{ borderColor: "brand.focusRing", outline: "1px solid", outlineColor: "brand.focusRing" }}>
      {value.map((word) => (
        <Tag.Root key={word} size="md" variant="subtle" colorPalette="brand">
          <Tag.Label>{word}</Tag.Label>
          <Tag.EndElement>
            <Tag.CloseTrigger aria-label={t("kb.tags.remove", { tag: word })} onClick={() => onChange(value.filter((other) => other !== word))} />
          </Tag.EndElement>
        </Tag.Root>
      ))}
      <Input
        variant="flushed"
        border="none"
        size="sm"
        flex="1"
        minWidth="32"
        height="7"
        px="1"
        _focusVisible={{ outline: "none", boxShadow: "none" }}
        value={typed}
        placeholder={value.length === 0 ? (placeholder ?? t("kb.tags.placeholder")) : t("kb.tags.more")}
        onChange={(event) => setTyped(event.target.value)}
        onKeyDown={keyDown}
        onBlur={() => typed.trim() && add(typed)}
      />
    </Flex>
  );
}
