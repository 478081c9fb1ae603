import { Box, Button, Center, Checkbox, Flex, HStack, Icon, Skeleton, Stack, Text } from "@chakra-ui/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { IconType } from "react-icons";
import { LuFilter, LuRefreshCw, LuSearchX, LuTimer, LuTriangleAlert } from "react-icons/lu";
import { useFormatters } from "../../../format";
import type { RetrieveQuery } from "../../../graphql/gql/graphql";
import { Pager } from "../../../components/Pager";
import { HitCard } from "./HitCard";

export type RetrievalResult = RetrieveQuery["retrieve"];
export type DocumentChoice = RetrievalResult["documents"][number];

export const PAGE_SIZE = 10;

export function EmptyState({ icon, title, body, testId, children }: { icon: IconType; title: string; body: string; testId: string; children?: ReactNode }) {
  return (
    <Center py="16" px="6" flexDirection="column" gap="3" textAlign="center" borderWidth="1px" borderStyle="dashed" borderColor="border.emphasized" rounded="l3" data-testid={testId}>
      <Box rounded="full" bg="brand.subtle" color="brand.fg" p="4">
        <Icon as={icon} boxSize="6" />
      </Box>
      <Text fontWeight="semibold">{title}</Text>
      <Text fontSize="sm" color="fg.muted" maxWidth="md">
        {body}
      </Text>
      {children}
    </Center>
  );
}

/** Milliseconds the way a person reads them: a tenth below ten, whole ones above. */
function useMilliseconds() {
  const format = useFormatters();
  return (ms: number) => format.number(ms >= 10 ? Math.round(ms) : Math.round(ms * 10) / 10, 1);
}

function StageTimings({ timings, reranked }: { timings: RetrievalResult["timings"]; reranked: boolean }) {
  const { t } = useTranslation();
  const ms = useMilliseconds();
  const stages = [
    t("retrievalTest.timings.keyword", { ms: ms(timings.keywordMs) }),
    t("retrievalTest.timings.vector", { ms: ms(timings.vectorMs) }),
    reranked ? t("retrievalTest.timings.rerank", { ms: ms(timings.rerankMs) }) : t("retrievalTest.timings.noRerank"),
  ];
  return (
    <HStack gap="1.5" fontSize="xs" color="fg.muted" wrap="wrap" title={t("retrievalTest.timings.title")} data-testid="retrieval-timings">
      <Icon as={LuTimer} aria-label={t("retrievalTest.timings.title")} />
      {stages.map((stage) => (
        <Text key={stage} as="span">
          {stage} ·
        </Text>
      ))}
      <Text as="span" fontWeight="medium" color="fg">
        {t("retrievalTest.timings.total", { ms: ms(timings.totalMs) })}
      </Text>
    </HStack>
  );
}

interface DocumentFilterProps {
  choices: DocumentChoice[];
  selected: string[];
  disabled: boolean;
  onChange: (selected: string[]) => void;
}

/** The documents the unfiltered test found, with their hit counts: ticking some narrows the test to them. */
function DocumentFilter({ choices, selected, disabled, onChange }: DocumentFilterProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const toggle = (id: string, on: boolean) => onChange(on ? [...selected, id] : selected.filter((chosen) => chosen !== id));
  return (
    <Box bg="bg.panel" borderWidth="1px" rounded="l3" px="4" py="3" data-testid="retrieval-documents">
      <Flex justify="space-between" align="center" gap="3" mb="2">
        <HStack gap="1.5" fontSize="xs" fontWeight="semibold" color="fg.muted" textTransform="uppercase" letterSpacing="wider">
          <Icon as={LuFilter} />
          <Text>{t("retrievalTest.documents")}</Text>
        </HStack>
        {selected.length > 0 && (
          <Button size="2xs" variant="ghost" onClick={() => onChange([])} disabled={disabled} data-testid="retrieval-documents-clear">
            {t("retrievalTest.clearFilter")}
          </Button>
        )}
      </Flex>
      <Flex gap="2" wrap="wrap">
        {choices.map((choice) => {
          const checked = selected.includes(choice.documentId);
          return (
            <Checkbox.Root
              key={choice.documentId}
              size="sm"
              colorPalette="brand"
              checked={checked}
              disabled={disabled}
              onCheckedChange={(details) => toggle(choice.documentId, details.checked === true)}
              borderWidth="1px"
              borderColor={checked ? "brand.muted" : "border"}
              bg={checked ? "brand.subtle" : "transparent"}
              rounded="l2"
              px="2.5"
              py="1.5"
              maxWidth="full"
              data-testid="retrieval-document-option"
              data-document={choice.documentName}
            >
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label minWidth="0" display="flex" gap="1.5">
                <Text as="span" truncate title={choice.documentName}>
                  {choice.documentName}
                </Text>
                <Text as="span" color="fg.muted" fontFamily="mono" fontSize="xs">
                  {format.number(choice.count)}
                </Text>
              </Checkbox.Label>
            </Checkbox.Root>
          );
        })}
      </Flex>
    </Box>
  );
}

interface RetrievalResultsProps {
  result: RetrievalResult | undefined;
  loading: boolean;
  /** Why the test failed, when no earlier result is left to show. */
  failure: string | null;
  onRetry: () => void;
  reranked: boolean;
  rerankModelName: string | null;
  page: number;
  documentChoices: DocumentChoice[];
  documentFilter: string[];
  onDocumentFilter: (selected: string[]) => void;
  onPage: (page: number) => void;
}

export function RetrievalResults({ result, loading, failure, onRetry, reranked, rerankModelName, page, documentChoices, documentFilter, onDocumentFilter, onPage }: RetrievalResultsProps) {
  const { t } = useTranslation();
  const format = useFormatters();

  if (!result && failure && !loading) {
    return (
      <EmptyState icon={LuTriangleAlert} title={t("retrievalTest.failedTitle")} body={failure} testId="retrieval-error">
        <Button size="sm" variant="outline" onClick={onRetry}>
          <LuRefreshCw /> {t("common.retry")}
        </Button>
      </EmptyState>
    );
  }
  if (!result) {
    return (
      <Stack gap="3" aria-busy data-testid="retrieval-loading">
        <Skeleton height="6" width="60%" rounded="l2" />
        <Skeleton height="36" rounded="l3" />
        <Skeleton height="36" rounded="l3" />
      </Stack>
    );
  }

  return (
    <Stack gap="4" data-testid="retrieval-results" aria-busy={loading} opacity={loading ? 0.6 : 1} transition="opacity 0.15s">
      <Stack gap="1">
        <Text fontWeight="semibold" data-testid="retrieval-total">
          {t("retrievalTest.total", { count: result.total, formatted: format.number(result.total) })}
        </Text>
        <StageTimings timings={result.timings} reranked={reranked} />
        {reranked && rerankModelName && (
          <Text fontSize="xs" color="fg.muted">
            {t("retrievalTest.rerankNote", { model: rerankModelName })}
          </Text>
        )}
      </Stack>

      {documentChoices.length > 0 && <DocumentFilter choices={documentChoices} selected={documentFilter} disabled={loading} onChange={onDocumentFilter} />}

      {result.hits.length === 0 ? (
        <EmptyState icon={LuSearchX} title={t("retrievalTest.emptyTitle")} body={t("retrievalTest.emptyBody")} testId="retrieval-empty" />
      ) : (
        <Stack gap="3">
          {result.hits.map((hit, index) => (
            <HitCard key={hit.chunk.id} hit={hit} rank={(page - 1) * PAGE_SIZE + index + 1} reranked={reranked} />
          ))}
        </Stack>
      )}
      <Pager page={page} pageSize={PAGE_SIZE} total={result.total} onPage={onPage} />
    </Stack>
  );
}
