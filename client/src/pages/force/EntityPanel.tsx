import { Badge, Box, Button, CloseButton, HStack, Icon, IconButton, Skeleton, Stack, Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LuArrowLeft, LuArrowRight, LuExternalLink, LuFileText } from "react-icons/lu";
import { Link as RouterLink } from "react-router-dom";
import { LoadFailed } from "../../components/LoadFailed";
import { GraphEntityDocument, type GraphEntityQuery } from "../../graphql/gql/graphql";
import { chunkPagePath, documentPath, mentionIn, type EntityRef } from "./forceModel";

interface EntityPanelProps {
  entity: EntityRef;
  colour: (type: string) => string;
  onFocus: (entity: EntityRef) => void;
  onClose: () => void;
}

/** The focused entity: what the graph says of it, its relations (each focusable) and the chunks that mention it. */
export function EntityPanel({ entity, colour, onFocus, onClose }: EntityPanelProps) {
  const { t } = useTranslation();
  const { data, loading, error, refetch } = useQuery(GraphEntityDocument, { variables: entity });
  const detail = data?.graphEntity;

  return (
    <Stack as="aside" width="80" flexShrink={0} borderLeftWidth="1px" bg="bg.panel" overflowY="auto" gap="0" data-testid="force-entity-panel">
      <HStack px="4" pt="4" pb="2" align="start" gap="2">
        <Stack gap="1" flex="1" minWidth="0">
          <Text fontWeight="semibold" fontSize="lg" lineHeight="short" wordBreak="break-word" data-testid="force-entity-name">
            {entity.name}
          </Text>
          {detail && (
            <HStack gap="2" wrap="wrap">
              <Badge size="sm" variant="subtle" gap="1.5">
                <Box boxSize="2" rounded="full" style={{ background: colour(detail.node.type) }} />
                {detail.node.type}
              </Badge>
              <Text fontSize="xs" color="fg.muted" truncate>
                {detail.knowledgeBaseName} · {t("force.degree", { count: detail.node.degree })}
              </Text>
            </HStack>
          )}
        </Stack>
        <CloseButton size="sm" onClick={onClose} aria-label={t("common.close")} data-testid="force-entity-close" />
      </HStack>
      {loading && !detail ? (
        <Stack px="4" py="2" gap="3">
          <Skeleton height="16" />
          <Skeleton height="24" />
        </Stack>
      ) : !detail ? (
        <LoadFailed py="8" error={error} onRetry={() => void refetch()} />
      ) : (
        <Stack px="4" pb="6" gap="5">
          {detail.description && (
            <Text fontSize="sm" whiteSpace="pre-wrap" data-testid="force-entity-description">
              {detail.description}
            </Text>
          )}
          <PanelSection title={t("force.relations", { n: detail.relations.length })}>
            {detail.relations.length === 0 ? (
              <Text fontSize="sm" color="fg.muted">
                {t("force.noRelations")}
              </Text>
            ) : (
              detail.relations.map((relation) => (
                <Box key={relation.other.id} data-testid="force-relation">
                  <Button
                    variant="plain"
                    size="sm"
                    px="0"
                    height="auto"
                    gap="1.5"
                    color="fg"
                    fontWeight="medium"
                    _hover={{ color: "brand.fg", textDecoration: "underline" }}
                    onClick={() => onFocus({ knowledgeBaseId: relation.other.knowledgeBaseId, name: relation.other.name })}
                    title={t(relation.direction === "out" ? "force.relationOut" : "force.relationIn")}
                  >
                    <Icon as={relation.direction === "out" ? LuArrowRight : LuArrowLeft} color="fg.muted" />
                    <Box boxSize="2" rounded="full" flexShrink={0} style={{ background: colour(relation.other.type) }} />
                    <Text as="span" truncate>
                      {relation.other.name}
                    </Text>
                  </Button>
                  {relation.description && (
                    <Text fontSize="xs" color="fg.muted" lineClamp={3} ps="5">
                      {relation.description}
                    </Text>
                  )}
                </Box>
              ))
            )}
          </PanelSection>
          <MentioningChunks detail={detail} />
        </Stack>
      )}
    </Stack>
  );
}

/** The chunks that name the entity, each opening its document's chunk page; without any, the documents it was found in. */
function MentioningChunks({ detail }: { detail: NonNullable<GraphEntityQuery["graphEntity"]> }) {
  const { t } = useTranslation();
  const knowledgeBaseId = detail.node.knowledgeBaseId;
  const name = detail.node.name;
  return (
    <PanelSection title={t("force.chunks", { n: detail.chunks.length })}>
      {detail.chunks.length === 0 ? (
        <Stack gap="2">
          <Text fontSize="sm" color="fg.muted" data-testid="force-no-chunks">
            {t("force.noChunks")}
          </Text>
          {detail.documents.map((document) => (
            <Button key={document.id} asChild size="xs" variant="ghost" justifyContent="flex-start">
              <RouterLink to={chunkPagePath(knowledgeBaseId, document.id, name)}>
                <LuFileText /> {document.name}
              </RouterLink>
            </Button>
          ))}
        </Stack>
      ) : (
        detail.chunks.map((chunk) => {
          const mention = mentionIn(chunk.content, name);
          return (
            <Box key={chunk.id} borderWidth="1px" rounded="l2" p="2.5" data-testid="force-chunk">
              <HStack gap="1" mb="1.5">
                <Icon as={LuFileText} color="fg.muted" boxSize="3.5" flexShrink={0} />
                <Text fontSize="xs" color="fg.muted" truncate flex="1">
                  {chunk.documentName}
                  {chunk.page != null && ` · ${t("force.page", { page: chunk.page })}`}
                </Text>
              </HStack>
              <Text fontSize="xs" whiteSpace="pre-wrap" wordBreak="break-word">
                {mention.before}
                {mention.match && (
                  <Box as="mark" bg="brand.subtle" color="brand.fg" rounded="sm" px="0.5">
                    {mention.match}
                  </Box>
                )}
                {mention.after}
              </Text>
              <HStack gap="1" mt="2" justify="flex-end">
                <Button asChild size="xs" variant="outline" data-testid="force-chunk-open">
                  <RouterLink to={chunkPagePath(knowledgeBaseId, chunk.documentId, name)}>{t("force.openChunk")}</RouterLink>
                </Button>
                <IconButton asChild size="xs" variant="ghost" aria-label={t("force.openDocument")} title={t("force.openDocument")}>
                  <RouterLink to={documentPath(chunk.documentId, chunk.id, chunk.page ?? null)} data-testid="force-chunk-document">
                    <LuExternalLink />
                  </RouterLink>
                </IconButton>
              </HStack>
            </Box>
          );
        })
      )}
    </PanelSection>
  );
}

function PanelSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="2">
      <Text fontSize="xs" fontWeight="semibold" textTransform="uppercase" letterSpacing="0.06em" color="fg.subtle">
        {title}
      </Text>
      {children}
    </Stack>
  );
}
