import { Box, Collapsible, HStack, Text } from "@chakra-ui/react";
import { useState } from "react";
import { LuChevronDown, LuChevronRight } from "react-icons/lu";
import { CopyButton } from "../../../components/CopyButton";

/** A value shown as indented JSON under a title that opens and closes it, with a copy button; long texts scroll. */
export function JsonBlock({ title, value, defaultOpen = true, testId }: { title: string; value: unknown; defaultOpen?: boolean; testId?: string }) {
  const [open, setOpen] = useState(defaultOpen);
  const text = typeof value === "string" ? value : JSON.stringify(value ?? null, null, 2);
  return (
    <Collapsible.Root open={open} onOpenChange={(details) => setOpen(details.open)} data-testid={testId}>
      <HStack justify="space-between" gap="1">
        <Collapsible.Trigger asChild>
          <HStack as="button" gap="1" fontSize="xs" fontWeight="semibold" color="fg.muted" cursor="pointer" _hover={{ color: "fg" }} data-testid={testId && `${testId}-toggle`}>
            {open ? <LuChevronDown /> : <LuChevronRight />}
            <Text>{title}</Text>
          </HStack>
        </Collapsible.Trigger>
        <CopyButton value={text} iconOnly testId={testId && `${testId}-copy`} />
      </HStack>
      <Collapsible.Content>
        <Box as="pre" fontFamily="mono" fontSize="xs" bg="bg.muted" rounded="l2" p="2.5" maxHeight="64" overflow="auto" whiteSpace="pre-wrap" wordBreak="break-word">
          {text}
        </Box>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
