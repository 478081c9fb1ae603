import { Badge, HStack, Stack, Text } from "@chakra-ui/react";

/** A part of the merge page: its title (with a count when it has one) and a line of help. */
export function SectionTitle({ title, help, count }: { title: string; help: string; count?: number }) {
  return (
    <Stack gap="0.5">
      <HStack gap="2">
        <Text as="h2" fontWeight="semibold">
          {title}
        </Text>
        {count !== undefined && (
          <Badge size="sm" variant="subtle" colorPalette="brand">
            {count}
          </Badge>
        )}
      </HStack>
      <Text fontSize="sm" color="fg.muted">
        {help}
      </Text>
    </Stack>
  );
}
