import { Badge, Box, Center, Flex, Heading, HStack, Spinner, Stack, Table, Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useTranslation } from "react-i18next";
import { FlowThumbnail } from "../../../components/flow-thumbnail/FlowThumbnail";
import { LoadFailed } from "../../../components/LoadFailed";
import { FilePreview } from "../../../components/preview/FilePreview";
import { fileRoutes } from "../../../documents/fileRoutes";
import { useFormatters } from "../../../format";
import { FileContentPreviewDocument, type WorkSlideQuery } from "../../../graphql/gql/graphql";
import { useCurrentUser } from "../../../session/useCurrentUser";
import { TeamBadge, useCountsText, WorkKindIcon } from "../works/workVisuals";

export type SlideWork = WorkSlideQuery["works"]["items"][number];

/** One work, large: its name and numbers above, and what it is made of below (its kind's preview). */
export function WorkSlide({ work }: { work: SlideWork }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const format = useFormatters(user?.timezone);
  const counts = useCountsText()(work);
  return (
    <Stack gap="6" height="full" data-testid="slide" data-kind={work.kind} data-name={work.name}>
      <HStack gap="4" align="flex-start">
        <WorkKindIcon work={work} size="14" />
        <Stack gap="1" flex="1" minWidth="0">
          <Heading as="h2" size="2xl" lineClamp={2} data-testid="slide-title">
            {work.name}
          </Heading>
          <Text color="fg.muted">{[t(work.kind === "file" && work.variant === "folder" ? "works.kind.folder" : `works.kind.${work.kind}`), counts, t("works.active", { time: format.relativeTime(work.activityAt) })].filter(Boolean).join(" · ")}</Text>
          {work.description && (
            <Text color="fg.muted" lineClamp={2}>
              {work.description}
            </Text>
          )}
        </Stack>
        {work.teamShared && <TeamBadge />}
      </HStack>
      <Box flex="1" minHeight="0" overflow="auto" position="relative" data-testid="slide-preview">
        <SlideBody work={work} />
      </Box>
    </Stack>
  );
}

function SlideBody({ work }: { work: SlideWork }) {
  switch (work.kind) {
    case "flow":
      // Pinned to the preview's box: the drawing fits the space left, whatever the flow's proportions.
      return (
        <Box position="absolute" inset="0">
          <FlowThumbnail graph={work.preview.outline} height="full" testId="slide-flow-graph" />
        </Box>
      );
    case "knowledgeBase":
      return <KnowledgeBaseDocuments work={work} />;
    case "assistant":
      return <LastConversation work={work} />;
    case "file":
      return work.variant === "folder" ? <Quiet textKey="slides.folder" /> : <FileContent fileId={work.id} />;
    case "search":
      return work.preview.answer ? (
        <Text fontSize="lg" lineHeight="tall" whiteSpace="pre-wrap" data-testid="slide-answer">
          {work.preview.answer}
        </Text>
      ) : (
        <Quiet textKey="slides.noAnswer" />
      );
    default:
      return null;
  }
}

function Quiet({ textKey }: { textKey: string }) {
  const { t } = useTranslation();
  return (
    <Center height="full" minHeight="40" color="fg.subtle" bg="bg.muted" rounded="l3" data-testid="slide-quiet">
      {t(textKey)}
    </Center>
  );
}

/** A knowledge base's latest documents with their chunk counts. */
function KnowledgeBaseDocuments({ work }: { work: SlideWork }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const documents = work.preview.documents;
  if (documents.length === 0) return <Quiet textKey="slides.noDocuments" />;
  return (
    <Table.Root size="md" variant="outline" rounded="l3" data-testid="slide-documents">
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeader>{t("slides.document")}</Table.ColumnHeader>
          <Table.ColumnHeader textAlign="end">{t("slides.chunks")}</Table.ColumnHeader>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {documents.map((document) => (
          <Table.Row key={document.id} data-testid="slide-document">
            <Table.Cell>
              <Text lineClamp={1}>{document.name}</Text>
            </Table.Cell>
            <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
              {format.number(document.chunkCount, 0)}
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}

/** An assistant's last conversation: its name and last messages, as a chat shows them. */
function LastConversation({ work }: { work: SlideWork }) {
  const { t } = useTranslation();
  const { conversationName, messages } = work.preview;
  if (!conversationName) return <Quiet textKey="slides.noConversation" />;
  return (
    <Stack gap="3" data-testid="slide-conversation">
      <Badge alignSelf="flex-start" variant="subtle" size="md">
        {t("slides.lastConversation", { name: conversationName })}
      </Badge>
      {messages.map((message, index) => (
        <Flex key={index} justify={message.role === "user" ? "flex-end" : "flex-start"}>
          <Box
            maxWidth="75%"
            px="4"
            py="2.5"
            rounded="l3"
            bg={message.role === "user" ? "brand.solid" : "bg.muted"}
            color={message.role === "user" ? "brand.contrast" : "fg"}
            whiteSpace="pre-wrap"
            data-testid="slide-message"
          >
            <Text lineClamp={6}>{message.content}</Text>
          </Box>
        </Flex>
      ))}
    </Stack>
  );
}

/** A file as the file manager previews it, read only for the slide on screen. */
function FileContent({ fileId }: { fileId: string }) {
  const preview = useQuery(FileContentPreviewDocument, { variables: { id: fileId } });
  if (preview.data) return <FilePreview preview={preview.data.filePreview} downloadUrl={fileRoutes.download(fileId, true)} />;
  if (preview.error) return <LoadFailed error={preview.error} onRetry={() => void preview.refetch()} />;
  return (
    <Center py="16">
      <Spinner color="brand.solid" />
    </Center>
  );
}
