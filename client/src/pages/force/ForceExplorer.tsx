import { Box, Button, Center, Flex, NativeSelect, Spinner, Stack, Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LuRotateCcw } from "react-icons/lu";
import { useSearchParams } from "react-router-dom";
import { GraphCanvas } from "../../components/knowledge-graph/GraphCanvas";
import { GraphLegend } from "../../components/knowledge-graph/GraphLegend";
import { carryPositions, colourFor, type GraphNode } from "../../components/knowledge-graph/graphModel";
import { LoadFailed } from "../../components/LoadFailed";
import { PageSpinner } from "../../components/PageBoundary";
import { GraphExplorerDocument, GraphKnowledgeBasesDocument, type GraphKnowledgeBasesQuery } from "../../graphql/gql/graphql";
import { EntityPanel } from "./EntityPanel";
import { EntitySearch } from "./EntitySearch";
import { DEFAULT_ENTITY_LIMIT, drawingOf, ENTITY_LIMITS, entityOf, idOf, initialKnowledgeBases, toggledKnowledgeBase, type EntityRef } from "./forceModel";
import { KnowledgeBaseChooser } from "./KnowledgeBaseChooser";
import { NoGraphs } from "./NoGraphs";

export type GraphKnowledgeBase = GraphKnowledgeBasesQuery["graphKnowledgeBases"][number];

/** The signed-in explorer: the knowledge bases with graphs, or what to do when none has one yet. */
export function ForceExplorer() {
  const { data, loading, error, refetch } = useQuery(GraphKnowledgeBasesDocument, { fetchPolicy: "cache-and-network" });
  if (!data && loading) return <PageSpinner minHeight="full" />;
  if (!data) return <LoadFailed error={error} onRetry={() => void refetch()} />;
  const withGraphs = data.graphKnowledgeBases.filter((kb) => kb.entityCount > 0);
  if (withGraphs.length === 0) return <NoGraphs knowledgeBases={data.graphKnowledgeBases} />;
  return <Explorer knowledgeBases={withGraphs} />;
}

/** The chosen knowledge bases (`?kb=`) and the focused entity (`?entity=`) live in the address, so a view can be shared and reloaded. */
function Explorer({ knowledgeBases }: { knowledgeBases: GraphKnowledgeBase[] }) {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const chosen = useMemo(() => initialKnowledgeBases(params.get("kb"), knowledgeBases), [params, knowledgeBases]);
  const focusParam = params.get("entity");
  const focus = useMemo(() => {
    const entity = focusParam ? entityOf(focusParam) : null;
    return entity && chosen.includes(entity.knowledgeBaseId) ? entity : null;
  }, [focusParam, chosen]);
  const [limit, setLimit] = useState<number>(DEFAULT_ENTITY_LIMIT);
  const [marked, setMarked] = useState<ReadonlySet<string>>(new Set());
  // Reset draws the graph afresh: a new canvas lays it out and frames it again.
  const [drawingKey, setDrawingKey] = useState(0);

  const { data, previousData, loading, error, refetch } = useQuery(GraphExplorerDocument, { variables: { knowledgeBaseIds: chosen, limit, focus } });
  const view = data?.graphExplorer ?? previousData?.graphExplorer;

  const drawn = useRef<GraphNode[]>([]);
  const drawing = useMemo(() => {
    if (!view) return null;
    const { nodes, edges } = drawingOf(view.nodes, view.edges);
    const placed = carryPositions(drawn.current, nodes, edges);
    drawn.current = placed;
    return { nodes: placed, edges };
  }, [view, drawingKey]);
  // Sorted, so that a type keeps its colour when focusing brings in other types.
  const types = useMemo(() => [...new Set(drawing?.nodes.map((node) => node.type))].sort((a, b) => a.localeCompare(b)), [drawing]);
  const colour = colourFor(types);
  const names = useMemo(() => new Map(knowledgeBases.map((kb) => [kb.id, kb.name])), [knowledgeBases]);

  const change = (update: (next: URLSearchParams) => void) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        update(next);
        return next;
      },
      { replace: true },
    );
  const setFocus = (entity: EntityRef | null) => change((next) => (entity ? next.set("entity", idOf(entity)) : next.delete("entity")));
  const setChosen = (ids: string[]) =>
    change((next) => {
      next.set("kb", ids.join(","));
      if (focus && !ids.includes(focus.knowledgeBaseId)) next.delete("entity");
    });
  const reset = () => {
    change((next) => next.delete("entity"));
    setLimit(DEFAULT_ENTITY_LIMIT);
    setMarked(new Set());
    drawn.current = [];
    setDrawingKey((key) => key + 1);
  };

  const format = new Intl.NumberFormat(i18n.language);
  return (
    <Flex height="full" minHeight="0">
      <Stack as="aside" width="64" flexShrink={0} borderRightWidth="1px" bg="bg.panel" p="4" gap="5" overflowY="auto" data-testid="force-sidebar">
        <EntitySearch key={chosen.join(",")} knowledgeBaseIds={chosen} knowledgeBaseNames={chosen.length > 1 ? names : null} onChoose={setFocus} onResults={setMarked} />
        <Section title={t("force.knowledgeBases")}>
          <KnowledgeBaseChooser knowledgeBases={knowledgeBases} chosen={chosen} onToggle={(id) => setChosen(toggledKnowledgeBase(chosen, id))} />
        </Section>
        {view && (
          <Section title={t("force.shownTitle")}>
            <Text fontSize="sm" color="fg.muted" data-testid="force-shown">
              {t("force.shown", { shown: format.format(view.nodes.length), total: format.format(view.entityCount), relations: format.format(view.edges.length), relationTotal: format.format(view.relationCount) })}
            </Text>
            {view.nodes.length < view.entityCount && (
              <Text fontSize="xs" color="fg.subtle" data-testid="force-capped">
                {t("force.capped")}
              </Text>
            )}
            <Stack gap="2">
              <NativeSelect.Root size="sm">
                <NativeSelect.Field value={String(limit)} onChange={(event) => setLimit(Number(event.target.value))} aria-label={t("force.limit")} data-testid="force-limit">
                  {ENTITY_LIMITS.map((value) => (
                    <option key={value} value={value}>
                      {t("force.limitOption", { limit: value })}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
              <Button size="sm" variant="outline" alignSelf="flex-start" onClick={reset} data-testid="force-reset">
                <LuRotateCcw /> {t("force.reset")}
              </Button>
            </Stack>
          </Section>
        )}
        {types.length > 0 && (
          <Section title={t("force.legend")}>
            <GraphLegend types={types} colour={colour} />
            <Text fontSize="xs" color="fg.subtle">
              {t("force.sizeHint")}
            </Text>
          </Section>
        )}
      </Stack>
      <Box flex="1" minWidth="0" position="relative">
        {error && !view ? (
          <LoadFailed error={error} onRetry={() => void refetch()} />
        ) : !drawing ? (
          <Center height="full">
            <Spinner color="brand.solid" />
          </Center>
        ) : (
          <GraphCanvas
            key={drawingKey}
            nodes={drawing.nodes}
            edges={drawing.edges}
            colour={colour}
            height="100%"
            ariaLabel={t("force.title")}
            selectedId={focus ? idOf(focus) : null}
            markedIds={marked}
            onSelect={(node) => setFocus(node ? entityOf(node.id) : null)}
          >
            {loading && (
              <Spinner position="absolute" top="3" left="3" size="sm" color="brand.solid" data-testid="force-loading" />
            )}
          </GraphCanvas>
        )}
      </Box>
      {focus && <EntityPanel entity={focus} colour={colour} onFocus={setFocus} onClose={() => setFocus(null)} />}
    </Flex>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="2">
      <Text fontSize="xs" fontWeight="semibold" textTransform="uppercase" letterSpacing="0.06em" color="fg.subtle">
        {title}
      </Text>
      {children}
    </Stack>
  );
}
