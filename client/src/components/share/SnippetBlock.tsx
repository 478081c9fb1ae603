import { Box, Flex, Text } from "@chakra-ui/react";
import { CopyButton } from "../CopyButton";

/** Code to paste somewhere else, with a copy button. */
export function SnippetBlock({ label, text, testId }: { label?: string; text: string; testId?: string }) {
  return (
    <Box borderWidth="1px" rounded="l2" overflow="hidden" data-testid={testId}>
      <Flex align="center" justify="space-between" gap="2" ps="3" pe="1" py="1" bg="bg.subtle" borderBottomWidth="1px">
        <Text fontSize="xs" fontFamily="mono" color="fg.muted">
          {label}
        </Text>
        <CopyButton value={text} iconOnly testId={testId ? `${testId}-copy` : undefined} />
      </Flex>
      <Box as="pre" m="0" p="3" fontFamily="mono" fontSize="xs" lineHeight="tall" whiteSpace="pre-wrap" wordBreak="break-all" maxHeight="56" overflowY="auto" data-testid={testId ? `${testId}-text` : undefined}>
        {text}
      </Box>
    </Box>
  );
}
