import { Skeleton, Stack } from "@chakra-ui/react";

/** Placeholder rows while the first page of documents loads. */
export function DocumentsLoading() {
  return (
    <Stack p="6" gap="3">
      <Skeleton height="8" />
      <Skeleton height="8" />
      <Skeleton height="8" />
    </Stack>
  );
}
