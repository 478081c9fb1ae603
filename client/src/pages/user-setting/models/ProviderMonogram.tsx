import { Badge, Center } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { CairnMark } from "../../../components/Logo";
import { monogramOf, monogramPalette, typeLabel, typePalette } from "./modelText";

/** A provider's mark: two letters on a colour of its own (no vendor logos), or Cairn's mark for the built-in models. */
export function ProviderMonogram({ name, builtin = false, size = "10" }: { name: string; builtin?: boolean; size?: string }) {
  if (builtin) {
    return (
      <Center boxSize={size} flexShrink="0" aria-hidden="true">
        <CairnMark size={36} />
      </Center>
    );
  }
  const palette = monogramPalette(name);
  return (
    <Center
      boxSize={size}
      flexShrink="0"
      rounded="l2"
      bg={`${palette}.subtle`}
      color={`${palette}.fg`}
      borderWidth="1px"
      borderColor={`${palette}.muted`}
      fontWeight="bold"
      fontSize="sm"
      letterSpacing="0.02em"
      aria-hidden="true"
    >
      {monogramOf(name)}
    </Center>
  );
}

export function ModelTypeBadge({ type, size = "sm" }: { type: string; size?: "xs" | "sm" | "md" }) {
  const { t } = useTranslation();
  return (
    <Badge colorPalette={typePalette(type)} variant="subtle" size={size} data-testid="model-type-badge">
      {typeLabel(t, type)}
    </Badge>
  );
}
