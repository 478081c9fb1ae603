import { Badge, HStack, Icon, Link, Stack, Text, Wrap } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuFileText } from "react-icons/lu";
import { Link as RouterLink } from "react-router-dom";
import type { ChatMessageFieldsFragment } from "../../graphql/gql/graphql";
import { CITATION } from "./citations";
import { documentPath } from "./CitationMarker";

type Aggregate = ChatMessageFieldsFragment["documents"][number];

/** What the list reads of an answer: a chat message, or a flow's answer. */
type CitingMessage = Pick<ChatMessageFieldsFragment, "content" | "references" | "documents">;

/** The documents an answer drew on, each with how many of its chunks were used. */
export function ReferenceList({ message, linkDocuments }: { message: CitingMessage; linkDocuments: boolean }) {
  const { t } = useTranslation();
  const documents: Aggregate[] = message.documents.length > 0 ? message.documents : aggregate(message.references);
  if (documents.length === 0) return null;
  return (
    <Stack gap="1.5" pt="3" mt="1" borderTopWidth="1px" borderColor="border.muted" data-testid="answer-references">
      <Text fontSize="xs" color="fg.muted" fontWeight="medium">
        {t("chat.answer.references")}
      </Text>
      <Wrap gap="2">
        {documents.map((document) => {
          const label = (
            <HStack gap="1.5" px="2" py="1" rounded="l2" borderWidth="1px" bg="bg.subtle" fontSize="xs" maxWidth="xs" _hover={linkDocuments ? { borderColor: "brand.emphasized" } : undefined}>
              <Icon as={LuFileText} color="fg.muted" flexShrink={0} />
              <Text truncate title={document.documentName}>
                {document.documentName}
              </Text>
              <Badge size="xs" variant="subtle" colorPalette="brand" rounded="full" flexShrink={0} title={t("chat.answer.chunkCount", { count: document.count })}>
                {document.count}
              </Badge>
            </HStack>
          );
          return linkDocuments ? (
            <Link key={document.documentId} asChild color="fg" textDecoration="none" data-testid="answer-reference">
              <RouterLink to={documentPath(document.documentId, firstCited(message, document.documentId))} target="_blank">
                {label}
              </RouterLink>
            </Link>
          ) : (
            <span key={document.documentId} data-testid="answer-reference">
              {label}
            </span>
          );
        })}
      </Wrap>
    </Stack>
  );
}

/** A document of the list opens at the first of its chunks the answer cites, else at the best of its chunks retrieved. */
function firstCited(message: CitingMessage, documentId: string): { page?: number | null; chunkId?: string } {
  const ofDocument = message.references.filter((reference) => reference.documentId === documentId);
  const cited = new Set([...message.content.matchAll(CITATION)].map((match) => Number(match[1])));
  const reference = ofDocument.find((candidate) => cited.has(candidate.index)) ?? ofDocument[0];
  return reference ? { page: reference.page, chunkId: reference.chunkId } : {};
}

/** While an answer is streaming only its chunks are known; the server's per-document counts arrive with the final message. */
function aggregate(references: ChatMessageFieldsFragment["references"]): Aggregate[] {
  const counts = new Map<string, Aggregate>();
  for (const reference of references) {
    const found = counts.get(reference.documentId);
    if (found) found.count += 1;
    else counts.set(reference.documentId, { documentId: reference.documentId, documentName: reference.documentName, count: 1 });
  }
  return [...counts.values()];
}
