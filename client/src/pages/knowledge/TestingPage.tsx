import { Box, Button, Grid, Text } from "@chakra-ui/react";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { LuFlaskConical, LuFolderOpen } from "react-icons/lu";
import { Link as RouterLink } from "react-router-dom";
import type { KnowledgeBaseSettingsFragment } from "../../graphql/gql/graphql";
import { KnowledgeBaseLayout } from "./KnowledgeBaseLayout";
import { SectionHeading } from "./SectionHeading";
import { RetrievalForm } from "./testing/RetrievalForm";
import { EmptyState, RetrievalResults } from "./testing/RetrievalResults";
import { useRetrievalTest, type RetrievalTestState } from "./testing/useRetrievalTest";

function RetrievalTest({ kb }: { kb: KnowledgeBaseSettingsFragment }) {
  const state = useRetrievalTest(kb);
  return (
    <Grid templateColumns={{ base: "minmax(0, 1fr)", xl: "20rem minmax(0, 1fr)" }} gap="6" alignItems="start">
      <Box position={{ xl: "sticky" }} top={{ xl: "24" }}>
        <RetrievalForm state={state} />
      </Box>
      <RetrievalOutcome kb={kb} state={state} />
    </Grid>
  );
}

/** The results of the run, or before any run what a test does (or that the knowledge base has no chunk yet). */
function RetrievalOutcome({ kb, state }: { kb: KnowledgeBaseSettingsFragment; state: RetrievalTestState }) {
  const { t } = useTranslation();
  const resultsTop = useRef<HTMLDivElement>(null);
  const { result } = state;
  return (
    <Box minWidth="0" ref={resultsTop} scrollMarginTop="24">
      {result?.crossLanguage && (
        <Text fontSize="sm" color={result.crossLanguage.translated ? "fg.muted" : "fg.warning"} mb="3" whiteSpace="pre-line" data-testid="retrieval-cross-language-note">
          {result.crossLanguage.translated ? t("retrievalTest.crossLanguagesSearched", { query: result.crossLanguage.query }) : t("retrievalTest.crossLanguagesUnavailable")}
        </Text>
      )}
      {state.run ? (
        <RetrievalResults
          result={result}
          loading={state.loading}
          failure={state.failure}
          onRetry={state.retry}
          reranked={state.reranked}
          rerankModelName={state.rerankModelName}
          page={state.page}
          documentChoices={state.documentChoices}
          documentFilter={state.documentFilter}
          onDocumentFilter={state.filterDocuments}
          onPage={(next) => {
            resultsTop.current?.scrollIntoView({ block: "start", behavior: "smooth" });
            state.turnPage(next);
          }}
        />
      ) : kb.chunkCount === 0 ? (
        <EmptyState icon={LuFolderOpen} title={t("retrievalTest.noChunksTitle")} body={t("retrievalTest.noChunksBody")} testId="retrieval-no-chunks">
          <Button asChild size="sm" variant="outline">
            <RouterLink to={`/knowledge/dataset?id=${kb.id}`}>{t("retrievalTest.toDataset")}</RouterLink>
          </Button>
        </EmptyState>
      ) : (
        <EmptyState icon={LuFlaskConical} title={t("retrievalTest.idleTitle")} body={t("retrievalTest.idleBody")} testId="retrieval-idle" />
      )}
    </Box>
  );
}

export default function TestingPage() {
  return (
    <KnowledgeBaseLayout section="testing">
      {(kb) => (
        <>
          <SectionHeading page="testing" />
          <RetrievalTest key={kb.id} kb={kb} />
        </>
      )}
    </KnowledgeBaseLayout>
  );
}
