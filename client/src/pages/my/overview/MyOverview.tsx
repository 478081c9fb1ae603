import { Avatar, Badge, Box, Heading, HStack, Icon, LinkBox, LinkOverlay, SimpleGrid, Skeleton, Stack, Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useTranslation } from "react-i18next";
import { LuBot, LuFileText, LuLayers, LuMessageSquare } from "react-icons/lu";
import { Link } from "react-router-dom";
import { useFormatters } from "../../../format";
import { AssistantsDocument, ConversationsDocument, KnowledgeBasesDocument, type AssistantCardFragment, type KnowledgeBaseCardFragment } from "../../../graphql/gql/graphql";
import { useCurrentUser } from "../../../session/useCurrentUser";
import { KnowledgeAvatar } from "../../../components/KnowledgeAvatar";
import { nextStep } from "./nextStep";
import { NextStepCard } from "./NextStepCard";

/** How many of each the overview shows; "View all" leads to the rest. */
const SHOWN = 6;
/** Recent conversations are read from the most recently changed assistants. */
const ASSISTANTS_WITH_CONVERSATIONS = 3;
const CONVERSATIONS_PER_ASSISTANT = 3;

/** The signed-in home's top: what to do next, then the user's knowledge bases, assistants and recent conversations. */
export function MyOverview() {
  const { t } = useTranslation();
  // Counts change as documents parse elsewhere: read them fresh each time the page opens.
  const knowledge = useQuery(KnowledgeBasesDocument, { variables: { page: 1, pageSize: SHOWN }, fetchPolicy: "cache-and-network" });
  const assistants = useQuery(AssistantsDocument, { variables: { page: 1, pageSize: SHOWN }, fetchPolicy: "cache-and-network" });
  const knowledgeBases = knowledge.data?.knowledgeBases.items;
  const assistantItems = assistants.data?.assistants.items;

  if (!knowledgeBases || !assistantItems) return <Skeleton height="40" rounded="l3" data-testid="my-overview-loading" />;
  const step = nextStep(knowledgeBases, assistantItems);
  const recentAssistants = [...assistantItems].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt)).slice(0, ASSISTANTS_WITH_CONVERSATIONS);

  return (
    <Stack gap="8" data-testid="my-overview">
      <NextStepCard step={step} />
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6">
        <Section title={t("my.knowledgeBases")} total={knowledge.data?.knowledgeBases.total ?? 0} allTo="/knowledge" testId="my-knowledge-bases">
          {knowledgeBases.length === 0 ? <Empty text={t("my.noKnowledgeBases")} /> : knowledgeBases.map((kb) => <KnowledgeBaseRow key={kb.id} kb={kb} />)}
        </Section>
        <Section title={t("my.assistants")} total={assistants.data?.assistants.total ?? 0} allTo="/chat" testId="my-assistants">
          {assistantItems.length === 0 ? <Empty text={t("my.noAssistants")} /> : assistantItems.map((assistant) => <AssistantRow key={assistant.id} assistant={assistant} />)}
        </Section>
      </SimpleGrid>
      {recentAssistants.length > 0 && (
        <Section title={t("my.recentConversations")} testId="my-recent-conversations">
          {recentAssistants.map((assistant) => (
            <RecentConversations key={assistant.id} assistant={assistant} />
          ))}
        </Section>
      )}
    </Stack>
  );
}

function Section({ title, total, allTo, testId, children }: { title: string; total?: number; allTo?: string; testId: string; children: React.ReactNode }) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <Stack gap="3" data-testid={testId}>
      <HStack justify="space-between">
        <HStack gap="2">
          <Heading as="h2" size="md">
            {title}
          </Heading>
          {total !== undefined && total > 0 && (
            <Badge variant="subtle" rounded="full" size="sm">
              {format.number(total)}
            </Badge>
          )}
        </HStack>
        {allTo && total !== undefined && total > 0 && (
          <Text asChild fontSize="sm" color="brand.fg" fontWeight="medium">
            <Link to={allTo}>{t("my.viewAll")}</Link>
          </Text>
        )}
      </HStack>
      <Stack gap="0" rounded="l3" borderWidth="1px" bg="bg.panel" overflow="hidden" divideY="1px">
        {children}
      </Stack>
    </Stack>
  );
}

function Empty({ text }: { text: string }) {
  return (
    <Text px="5" py="6" fontSize="sm" color="fg.muted">
      {text}
    </Text>
  );
}

function Row({ to, children, testId }: { to: string; children: React.ReactNode; testId: string }) {
  return (
    <LinkBox px="5" py="3.5" transition="background 0.15s" _hover={{ bg: "bg.subtle" }} data-testid={testId}>
      <HStack gap="3.5" minWidth="0">
        {children}
      </HStack>
      <LinkOverlay asChild>
        <Link to={to} aria-hidden tabIndex={-1} />
      </LinkOverlay>
    </LinkBox>
  );
}

function KnowledgeBaseRow({ kb }: { kb: KnowledgeBaseCardFragment }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const format = useFormatters(user?.timezone);
  return (
    <Row to={`/knowledge/dataset?id=${kb.id}`} testId="my-knowledge-base">
      <KnowledgeAvatar name={kb.name} avatar={kb.avatar} size="sm" />
      <Stack gap="0.5" minWidth="0" flex="1">
        <Text fontWeight="medium" truncate>
          {kb.name}
        </Text>
        <HStack gap="3" fontSize="xs" color="fg.muted" flexWrap="wrap">
          <HStack gap="1" data-testid="my-knowledge-base-documents">
            <LuFileText /> {t("kb.list.documents", { count: kb.documentCount, formatted: format.number(kb.documentCount) })}
          </HStack>
          <HStack gap="1" data-testid="my-knowledge-base-chunks">
            <LuLayers /> {t("kb.list.chunks", { count: kb.chunkCount, formatted: format.number(kb.chunkCount) })}
          </HStack>
          <Text>{t("kb.list.updated", { date: format.dateTime(kb.updatedAt) })}</Text>
        </HStack>
      </Stack>
    </Row>
  );
}

function AssistantRow({ assistant }: { assistant: AssistantCardFragment }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const format = useFormatters(user?.timezone);
  const knowledge = assistant.knowledgeBases.map((kb) => kb.name).join(", ");
  return (
    <Row to={`/chat?assistant=${assistant.id}`} testId="my-assistant">
      <Avatar.Root size="sm" shape="rounded" bg="brand.subtle" color="brand.fg">
        {assistant.avatar ? <Avatar.Image src={assistant.avatar} alt={assistant.name} /> : <Icon as={LuBot} boxSize="50%" />}
      </Avatar.Root>
      <Stack gap="0.5" minWidth="0" flex="1">
        <Text fontWeight="medium" truncate>
          {assistant.name}
        </Text>
        <HStack gap="3" fontSize="xs" color="fg.muted" flexWrap="wrap">
          <Text truncate maxWidth="xs">{knowledge ? t("my.answersFrom", { names: knowledge }) : t("my.noKnowledgeAttached")}</Text>
          <Text>{t("kb.list.updated", { date: format.dateTime(assistant.updatedAt) })}</Text>
        </HStack>
      </Stack>
    </Row>
  );
}

function RecentConversations({ assistant }: { assistant: AssistantCardFragment }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const format = useFormatters(user?.timezone);
  const { data } = useQuery(ConversationsDocument, { variables: { assistantId: assistant.id }, fetchPolicy: "cache-and-network" });
  const conversations = [...(data?.conversations ?? [])].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt)).slice(0, CONVERSATIONS_PER_ASSISTANT);
  if (!data) return null;
  if (conversations.length === 0) {
    return (
      <Row to={`/chat?assistant=${assistant.id}`} testId="my-conversation-start">
        <Icon as={LuMessageSquare} color="fg.subtle" />
        <Text fontSize="sm" color="fg.muted">
          {t("my.startConversation", { name: assistant.name })}
        </Text>
      </Row>
    );
  }
  return (
    <>
      {conversations.map((conversation) => (
        <Row key={conversation.id} to={`/chat?assistant=${assistant.id}&conversation=${conversation.id}`} testId="my-conversation">
          <Icon as={LuMessageSquare} color="brand.fg" />
          <Box minWidth="0" flex="1">
            <Text fontSize="sm" fontWeight="medium" truncate>
              {conversation.name}
            </Text>
            <Text fontSize="xs" color="fg.muted">
              {assistant.name} · {format.dateTime(conversation.updatedAt)}
            </Text>
          </Box>
        </Row>
      ))}
    </>
  );
}
