import { Button, Center, Flex, HStack, Input, InputGroup, SimpleGrid, Skeleton, Stack, Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LuLibrary, LuSearch, LuSearchX, LuSparkles } from "react-icons/lu";
import { Link } from "react-router-dom";
import { CreateKnowledgeBaseDialog } from "../../components/CreateKnowledgeBaseDialog";
import { LoadFailed } from "../../components/LoadFailed";
import { Pager } from "../../components/Pager";
import { WorksDocument } from "../../graphql/gql/graphql";
import { useDebouncedValue } from "../../hooks/useDebouncedValue";
import { useGridLayout } from "../../hooks/useGridLayout";
import { useWorkActions } from "./works/useWorkActions";
import { WorkFilter } from "./works/WorkFilter";
import { WorkCard, WorkRow } from "./works/WorkItems";
import type { WorkFilter as Filter } from "./works/workLogic";
import { LayoutToggle } from "../../components/LayoutToggle";

const PAGE_SIZE = 24;
const SEARCH_PAUSE_MS = 300;

/** /my's works: everything the user made, newest activity first, filtered, searched and paged by the server. */
export default function WorksPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<Filter>("all");
  const [search, setSearch] = useState("");
  const settledSearch = useDebouncedValue(search.trim(), SEARCH_PAUSE_MS);
  const [page, setPage] = useState(1);
  const [grid, setGrid] = useGridLayout("SpaceisGridLayout");
  const { data: current, previousData, loading, error, refetch } = useQuery(WorksDocument, {
    variables: { kind: filter === "all" ? null : filter, search: settledSearch || null, page, pageSize: PAGE_SIZE },
    // what changed on another page (a document parsed, a conversation held) moves a work up when the user comes back
    fetchPolicy: "cache-and-network",
  });
  // while a new filter, search or page loads, the last answer stays on screen rather than a flash of skeletons
  const data = current ?? previousData;
  const items = data?.works.items ?? [];
  const actions = useWorkActions(async () => {
    // the last work of a later page: show the page before it
    if (items.length === 1 && page > 1) setPage(page - 1);
    else await refetch();
  });
  const narrowed = filter !== "all" || settledSearch !== "";

  let content;
  if (error && !data) content = <LoadFailed error={error} onRetry={() => void refetch()} />;
  else if (!data) content = <Skeleton height="48" rounded="l3" data-testid="works-loading" />;
  else if (data.works.total === 0 && !narrowed) content = <WorksEmpty />;
  else if (data.works.total === 0) content = <NoMatch />;
  else
    content = (
      <Stack gap="4" opacity={loading ? 0.7 : 1} transition="opacity 0.15s">
        {grid ? (
          <SimpleGrid columns={{ base: 1, sm: 2, lg: 3, xl: 4 }} gap="4" data-testid="works-list" data-layout="grid">
            {items.map((work) => (
              <WorkCard key={`${work.kind}:${work.id}`} work={work} onAction={actions.act} />
            ))}
          </SimpleGrid>
        ) : (
          <Stack gap="0" rounded="l3" borderWidth="1px" overflow="hidden" divideY="1px" data-testid="works-list" data-layout="list">
            {items.map((work) => (
              <WorkRow key={`${work.kind}:${work.id}`} work={work} onAction={actions.act} />
            ))}
          </Stack>
        )}
        <Pager page={page} pageSize={PAGE_SIZE} total={data.works.total} onPage={setPage} />
      </Stack>
    );

  return (
    <Stack gap="4" data-testid="works-page">
      <Flex gap="3" wrap="wrap" justify="space-between" align="center">
        <WorkFilter
          value={filter}
          onChange={(next) => {
            setFilter(next);
            setPage(1);
          }}
        />
        <HStack gap="3">
          <InputGroup startElement={<LuSearch />} width={{ base: "full", md: "64" }}>
            <Input
              size="sm"
              placeholder={t("works.search")}
              aria-label={t("works.search")}
              value={search}
              onChange={(event) => {
                setSearch(event.target.value);
                setPage(1);
              }}
              data-testid="works-search"
            />
          </InputGroup>
          <LayoutToggle grid={grid} onGrid={setGrid} testId="works-layout" />
        </HStack>
      </Flex>
      {content}
      {actions.element}
    </Stack>
  );
}

/** Nothing made yet: the two ways to start, a knowledge base of one's own or the guided demo. */
function WorksEmpty() {
  const { t } = useTranslation();
  const [creating, setCreating] = useState(false);
  return (
    <Center py="12" px="6" bg="bg.panel" borderWidth="1px" borderStyle="dashed" rounded="l3" data-testid="works-empty">
      <Stack gap="4" align="center" textAlign="center" maxWidth="lg">
        <Text fontWeight="semibold" fontSize="lg">
          {t("works.empty.title")}
        </Text>
        <Text color="fg.muted">{t("works.empty.body")}</Text>
        <HStack gap="3" wrap="wrap" justify="center">
          <Button colorPalette="brand" onClick={() => setCreating(true)} data-testid="works-empty-create">
            <LuLibrary /> {t("works.empty.create")}
          </Button>
          <Button asChild variant="outline" data-testid="works-empty-demo">
            <Link to="/demo">
              <LuSparkles /> {t("works.empty.demo")}
            </Link>
          </Button>
        </HStack>
      </Stack>
      <CreateKnowledgeBaseDialog open={creating} onClose={() => setCreating(false)} pageOf={(id) => `/knowledge/dataset?id=${id}`} />
    </Center>
  );
}

function NoMatch() {
  const { t } = useTranslation();
  return (
    <Center py="12" flexDirection="column" gap="2" color="fg.muted" bg="bg.panel" borderWidth="1px" borderStyle="dashed" rounded="l3" data-testid="works-no-match">
      <LuSearchX size="28" />
      <Text>{t("works.noMatch")}</Text>
    </Center>
  );
}
