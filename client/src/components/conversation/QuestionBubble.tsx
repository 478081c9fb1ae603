import { Box, Flex, type FlexProps } from "@chakra-ui/react";
import { LuUser } from "react-icons/lu";

/** The user's side of a conversation: their words in a bubble on the right (`rest` carries the test id). */
export function QuestionBubble({ content, ...rest }: { content: string } & FlexProps) {
  return (
    <Flex justify="flex-end" gap="3" {...rest}>
      <Box maxWidth="80%" bg="brand.solid" color="brand.contrast" px="4" py="2.5" rounded="l3" roundedTopRight="l1" fontSize="sm" whiteSpace="pre-wrap" wordBreak="break-word">
        {content}
      </Box>
      <Flex boxSize="8" rounded="full" bg="bg.muted" color="fg.muted" align="center" justify="center" flexShrink={0}>
        <LuUser />
      </Flex>
    </Flex>
  );
}
