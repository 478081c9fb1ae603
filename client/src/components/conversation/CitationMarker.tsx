import { Badge, Box, HStack, Icon, Link, Popover, Portal, Stack, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuExternalLink, LuFileText } from "react-icons/lu";
import { Link as RouterLink } from "react-router-dom";
import type { ChatReferenceFieldsFragment } from "../../graphql/gql/graphql";

/** The document viewer at the cited place: the chunk it marks, and the page of a paged document. */
export function documentPath(documentId: string, cited: { page?: number | null; chunkId?: string | null } = {}): string {
  const query = new URLSearchParams();
  if (cited.page != null) query.set("page", String(cited.page));
  if (cited.chunkId) query.set("chunk", cited.chunkId);
  const search = query.toString();
  return `/document/${documentId}${search ? `?${search}` : ""}`;
}

interface CitationMarkerProps {
  index: number;
  reference: ChatReferenceFieldsFragment | undefined;
  /** Signed-in pages link to the document viewer; the share page shows the chunk only. */
  linkDocuments: boolean;
}

/** A small numbered marker in the answer; it opens the cited chunk, and from there its document. */
export function CitationMarker({ index, reference, linkDocuments }: CitationMarkerProps) {
  const { t } = useTranslation();
  if (!reference) return null;
  return (
    <Popover.Root positioning={{ placement: "top" }} lazyMount unmountOnExit>
      <Popover.Trigger asChild>
        <Box
          as="button"
          display="inline-flex"
          alignItems="center"
          justifyContent="center"
          minWidth="4.5"
          height="4.5"
          px="1"
          mx="0.5"
          rounded="full"
          fontSize="2xs"
          fontWeight="semibold"
          lineHeight="1"
          verticalAlign="super"
          bg="brand.muted"
          color="brand.fg"
          cursor="pointer"
          _hover={{ bg: "brand.solid", color: "brand.contrast" }}
          aria-label={t("chat.answer.citation", { number: index + 1, document: reference.documentName })}
          data-testid="citation"
          data-index={index}
        >
          {index + 1}
        </Box>
      </Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          <Popover.Content width={{ base: "xs", md: "md" }} data-testid="citation-popover">
            <Popover.Arrow>
              <Popover.ArrowTip />
            </Popover.Arrow>
            <Popover.Body p="4">
              <Stack gap="3">
                <HStack gap="2" minWidth="0">
                  <Icon as={LuFileText} color="fg.muted" flexShrink={0} />
                  {linkDocuments ? (
                    <Link asChild fontSize="sm" fontWeight="medium" minWidth="0" color="fg" _hover={{ color: "brand.fg" }}>
                      <RouterLink to={documentPath(reference.documentId, { page: reference.page, chunkId: reference.chunkId })} target="_blank" data-testid="citation-document">
                        <Text as="span" truncate>
                          {reference.documentName}
                        </Text>
                        <Icon as={LuExternalLink} boxSize="3" color="fg.subtle" flexShrink={0} />
                      </RouterLink>
                    </Link>
                  ) : (
                    <Text fontSize="sm" fontWeight="medium" truncate data-testid="citation-document">
                      {reference.documentName}
                    </Text>
                  )}
                  {reference.page != null && (
                    <Badge size="sm" variant="subtle" flexShrink={0}>
                      {t("retrievalTest.page", { page: reference.page })}
                    </Badge>
                  )}
                </HStack>
                <Text fontSize="sm" lineHeight="tall" whiteSpace="pre-wrap" wordBreak="break-word" maxHeight="60" overflowY="auto" color="fg.muted" data-testid="citation-chunk">
                  {reference.content}
                </Text>
              </Stack>
            </Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}
