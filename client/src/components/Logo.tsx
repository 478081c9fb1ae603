import { HStack, Text } from "@chakra-ui/react";

/** Four stacked stones: the cairn that marks a path, as the product marks the way through a company's documents. */
export function CairnMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="8" fill="#1e5f76" />
      <ellipse cx="16" cy="24.5" rx="9" ry="3.6" fill="#aee0ec" />
      <ellipse cx="16" cy="17.6" rx="6.6" ry="3" fill="#7ccbdd" />
      <ellipse cx="16" cy="11.6" rx="4.6" ry="2.5" fill="#45adc7" />
      <ellipse cx="16" cy="6.8" rx="2.8" ry="1.8" fill="#eef8fb" />
    </svg>
  );
}

export function Logo({ size = 28, color }: { size?: number; color?: string }) {
  return (
    <HStack gap="2.5">
      <CairnMark size={size} />
      <Text fontWeight="bold" fontSize={size >= 32 ? "2xl" : "lg"} letterSpacing="-0.02em" color={color}>
        Cairn
      </Text>
    </HStack>
  );
}
