import { Box, HStack, Text } from "@chakra-ui/react";

/** The colour of each entity type, in the graph's order. */
export function GraphLegend({ types, colour }: { types: string[]; colour: (type: string) => string }) {
  return (
    <HStack gap="4" wrap="wrap" fontSize="xs" color="fg.muted" data-testid="graph-legend">
      {types.map((type) => (
        <HStack key={type} gap="1.5">
          <Box boxSize="2.5" rounded="full" flexShrink={0} style={{ background: colour(type) }} />
          <Text>{type}</Text>
        </HStack>
      ))}
    </HStack>
  );
}
