import { Badge, Box, Button, Center, HStack, Icon, Skeleton, Spinner, Stack, Tabs, Text, Wrap } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LuCircleAlert, LuNetwork, LuSparkles } from "react-icons/lu";
import { AnswerMarkdown } from "../../components/conversation/AnswerMarkdown";
import { ReferenceList } from "../../components/conversation/ReferenceList";
import { streamingCaret } from "../../components/conversation/streamingCaret";
import { LoadFailed } from "../../components/LoadFailed";
import { MindMapView } from "../../components/mind-map/MindMapView";
import { describeError } from "../../errors";
import { SearchMindMapDocument, SearchRelatedQuestionsDocument, type SearchRecordFieldsFragment } from "../../graphql/gql/graphql";
import { isLiveAnswer } from "./useSearchAnswer";

/** The answer's mind map, made on first view once the answer is finished (and kept with the search). */
function MindMapPanel({ record }: { record: SearchRecordFieldsFragment }) {
  const { t } = useTranslation();
  const ready = !isLiveAnswer(record.status);
  const query = useQuery(SearchMindMapDocument, { variables: { recordId: record.id }, skip: !ready || record.mindMap != null });
  const map = record.mindMap ?? query.data?.searchMindMap ?? null;
  if (!ready || (query.loading && !map)) {
    return (
      <Center py="12" gap="2" color="fg.muted" data-testid="search-mind-map-waiting">
        <Spinner size="sm" /> {t(ready ? "search.mindMap.drawing" : "search.mindMap.afterAnswer")}
      </Center>
    );
  }
  if (query.error && !map) return <LoadFailed error={query.error} onRetry={() => void query.refetch()} py="10" />;
  return (
    <Stack gap="2" data-testid="search-mind-map" data-source={map?.source}>
      <Text fontSize="xs" color="fg.muted" data-testid="search-mind-map-source">
        {map?.source === "model" ? t("search.mindMap.byModel") : t("search.mindMap.extractive")}
      </Text>
      <MindMapView mindMap={map?.root} />
    </Stack>
  );
}

/** Related questions as chips: choosing one searches it in the same knowledge bases. */
function RelatedQuestions({ record, onAsk }: { record: SearchRecordFieldsFragment; onAsk: (question: string) => void }) {
  const { t } = useTranslation();
  const query = useQuery(SearchRelatedQuestionsDocument, { variables: { recordId: record.id }, skip: record.relatedQuestions != null });
  const questions = record.relatedQuestions ?? query.data?.searchRelatedQuestions ?? null;
  if (query.error && !questions) return null; // a side suggestion: its failure must not hide the answer
  return (
    <Stack gap="2" pt="3" borderTopWidth="1px" borderColor="border.muted" data-testid="search-related">
      <Text fontSize="xs" fontWeight="semibold" color="fg.muted">
        {t("search.related.title")}
      </Text>
      {questions === null ? (
        <HStack gap="2">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height="7" width="28" rounded="full" />
          ))}
        </HStack>
      ) : questions.length === 0 ? (
        <Text fontSize="sm" color="fg.subtle">
          {t("search.related.none")}
        </Text>
      ) : (
        <Wrap gap="2">
          {questions.map((question) => (
            <Button key={question} size="xs" variant="surface" rounded="full" onClick={() => onAsk(question)} data-testid="search-related-question">
              {question}
            </Button>
          ))}
        </Wrap>
      )}
    </Stack>
  );
}

interface SearchAnswerProps {
  record: SearchRecordFieldsFragment | null;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
  onAsk: (question: string) => void;
}

/** The summary answer with its citations (the chat's components) and, in a second tab, its mind map; related questions below. */
export function SearchAnswer({ record, loading, error, onRetry, onAsk }: SearchAnswerProps) {
  const { t, i18n } = useTranslation();
  const [tab, setTab] = useState("summary");
  if (error && !record) return <LoadFailed error={error} onRetry={onRetry} py="8" />;
  const live = record ? isLiveAnswer(record.status) : true;
  return (
    <Box bg="bg.panel" borderWidth="1px" rounded="l3" p="4" data-testid="search-answer" data-status={record?.status}>
      <Tabs.Root value={tab} onValueChange={(details) => setTab(details.value)} variant="line" size="sm" colorPalette="brand" lazyMount>
        <Tabs.List mb="3">
          <Tabs.Trigger value="summary" data-testid="search-tab-summary">
            <LuSparkles /> {t("search.answer.title")}
          </Tabs.Trigger>
          <Tabs.Trigger value="mindMap" data-testid="search-tab-mind-map">
            <LuNetwork /> {t("search.mindMap.title")}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="summary">
          {loading || !record || (record.status === "searching" && record.answer === "") ? (
            <HStack gap="2" color="fg.muted" fontSize="sm" py="2" data-testid="search-answer-waiting">
              <Spinner size="xs" /> {t("search.answer.writing")}
            </HStack>
          ) : (
            <Stack gap="3">
              <Box position="relative" css={live ? streamingCaret : undefined} data-testid="search-answer-content">
                <AnswerMarkdown content={record.answer} references={record.references} linkDocuments />
              </Box>
              {record.status === "failed" && (
                <HStack gap="2" color="fg.error" fontSize="sm" data-testid="search-answer-error">
                  <Icon as={LuCircleAlert} /> {record.error ?? describeError(null, i18n)}
                </HStack>
              )}
              {record.status === "stopped" && (
                <Badge alignSelf="start" size="sm" variant="subtle">
                  {t("search.answer.stopped")}
                </Badge>
              )}
              {!live && <ReferenceList message={{ content: record.answer, references: record.references, documents: record.documents }} linkDocuments />}
            </Stack>
          )}
        </Tabs.Content>
        <Tabs.Content value="mindMap">{record && <MindMapPanel record={record} />}</Tabs.Content>
      </Tabs.Root>
      {record && <RelatedQuestions record={record} onAsk={onAsk} />}
    </Box>
  );
}
