import { Button, Flex, HStack, Input, InputGroup, NativeSelect, SimpleGrid, Skeleton, Stack } from "@chakra-ui/react";
import { useApolloClient, useMutation, useQuery } from "@apollo/client/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LuFileUp, LuPlus, LuSearch } from "react-icons/lu";
import { ConfirmDeleteDialog } from "../../components/ConfirmDeleteDialog";
import { LoadFailed } from "../../components/LoadFailed";
import { PageHeader } from "../../components/PageHeader";
import { Pager } from "../../components/Pager";
import { TextFieldsDialog } from "../../components/TextFieldsDialog";
import { notify } from "../../components/toaster";
import { describeError } from "../../errors";
import {
  DeleteFlowCardDocument,
  DuplicateFlowCardDocument,
  ExportFlowFileDocument,
  FlowListDocument,
  UpdateFlowCardDocument,
  type FlowCardFragment,
} from "../../graphql/gql/graphql";
import { CreateFlowDialog } from "./list/CreateFlowDialog";
import { FlowCard, FlowRow } from "./list/FlowItems";
import { FlowListEmpty, FlowSearchEmpty } from "./list/FlowListEmpty";
import type { FlowAction } from "./list/FlowMenu";
import { titleProblemsOf } from "./list/flowTitle";
import { useDebouncedValue } from "../../hooks/useDebouncedValue";
import { useFlowImport } from "./list/useFlowImport";
import { useGridLayout } from "../../hooks/useGridLayout";
import { LayoutToggle } from "../../components/LayoutToggle";

const PAGE_SIZE = 24;
const SEARCH_PAUSE_MS = 300;

/** The orders the list offers, each in its natural direction. */
const SORTS = {
  updated: { orderBy: "updatedAt", desc: true },
  created: { orderBy: "createdAt", desc: true },
  name: { orderBy: "title", desc: false },
} as const;
type Sort = keyof typeof SORTS;

/** A file name from a flow's title: what no file system accepts in a name becomes "_". */
const fileNameOf = (title: string) => `${title.replace(/[\\/:*?"<>|\u0000-\u001f]/g, "_").trim() || "flow"}.json`;

function download(name: string, content: unknown) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(content, null, 2)], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  URL.revokeObjectURL(url);
}

export default function FlowListPage() {
  const { t, i18n } = useTranslation();
  const client = useApolloClient();
  const [search, setSearch] = useState("");
  const settledSearch = useDebouncedValue(search.trim(), SEARCH_PAUSE_MS);
  const [sort, setSort] = useState<Sort>("updated");
  const [page, setPage] = useState(1);
  const [grid, setGrid] = useGridLayout();
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<FlowCardFragment | null>(null);
  const [deleting, setDeleting] = useState<FlowCardFragment | null>(null);
  const flowImport = useFlowImport();
  const { data: current, previousData, loading, error, refetch } = useQuery(FlowListDocument, {
    variables: { search: settledSearch || null, page, pageSize: PAGE_SIZE, ...SORTS[sort] },
    // back from the editor, the list shows what was saved there
    fetchPolicy: "cache-and-network",
  });
  const [updateFlow] = useMutation(UpdateFlowCardDocument);
  const [duplicateFlow] = useMutation(DuplicateFlowCardDocument);
  const [deleteFlow] = useMutation(DeleteFlowCardDocument);
  // while a new search or page loads, the last answer stays on screen rather than a flash of skeletons
  const data = current ?? previousData;
  const items = data?.flows.items ?? [];

  async function attempt(action: () => Promise<void>) {
    try {
      await action();
    } catch (failure) {
      notify.error(describeError(failure, i18n));
    }
  }

  function act(action: FlowAction, flow: FlowCardFragment) {
    switch (action) {
      case "rename":
        return setRenaming(flow);
      case "delete":
        return setDeleting(flow);
      case "duplicate":
        return void attempt(async () => {
          await duplicateFlow({ variables: { id: flow.id }, refetchQueries: "active" });
          notify.success("created");
        });
      case "share":
        return void attempt(async () => {
          await updateFlow({ variables: { id: flow.id, input: { permission: flow.permission === "team" ? "me" : "team" } } });
          notify.success("modified");
        });
      case "export":
        return void attempt(async () => {
          const { data: exported } = await client.query({ query: ExportFlowFileDocument, variables: { id: flow.id }, fetchPolicy: "no-cache" });
          if (exported) download(fileNameOf(flow.title), exported.exportFlow);
        });
    }
  }

  async function remove(flow: FlowCardFragment) {
    await attempt(async () => {
      await deleteFlow({
        variables: { id: flow.id },
        update(cache) {
          cache.evict({ id: cache.identify({ __typename: "Flow", id: flow.id }) });
          cache.gc();
        },
      });
      notify.success("deleted");
      // the last flow of a later page: show the page before it
      if (items.length === 1 && page > 1) setPage(page - 1);
      else await refetch();
    });
  }

  const searching = settledSearch !== "";
  let content;
  if (loading && !data) {
    content = grid ? (
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 3, xl: 4 }} gap="5">
        {[0, 1, 2, 3].map((n) => (
          <Skeleton key={n} height="64" rounded="l3" />
        ))}
      </SimpleGrid>
    ) : (
      <Stack gap="2">
        {[0, 1, 2].map((n) => (
          <Skeleton key={n} height="20" rounded="l3" />
        ))}
      </Stack>
    );
  } else if (error && !current) {
    content = <LoadFailed error={error} onRetry={() => void refetch()} />;
  } else if (items.length === 0 && searching) {
    content = <FlowSearchEmpty search={settledSearch} onClear={() => setSearch("")} />;
  } else if (items.length === 0) {
    content = <FlowListEmpty onCreate={() => setCreating(true)} onImport={flowImport.choose} importing={flowImport.busy} />;
  } else {
    content = (
      <Stack gap="6">
        {grid ? (
          <SimpleGrid columns={{ base: 1, sm: 2, lg: 3, xl: 4 }} gap="5" data-testid="flow-list" data-layout="grid">
            {items.map((flow) => (
              <FlowCard key={flow.id} flow={flow} onAction={act} />
            ))}
          </SimpleGrid>
        ) : (
          <Stack gap="2" data-testid="flow-list" data-layout="list">
            {items.map((flow) => (
              <FlowRow key={flow.id} flow={flow} onAction={act} />
            ))}
          </Stack>
        )}
        <Pager page={page} pageSize={PAGE_SIZE} total={data?.flows.total ?? 0} onPage={setPage} />
      </Stack>
    );
  }

  return (
    <>
      <PageHeader
        title={t("pages.flow.title")}
        description={t("pages.flow.summary")}
        actions={
          <HStack gap="3">
            <Button variant="outline" onClick={flowImport.choose} loading={flowImport.busy} data-testid="flow-import">
              <LuFileUp /> {t("flow.list.import")}
            </Button>
            <Button colorPalette="brand" onClick={() => setCreating(true)} data-testid="flow-create">
              <LuPlus /> {t("flow.list.create")}
            </Button>
          </HStack>
        }
      />
      <Flex gap="3" mb="5" wrap="wrap" justify="space-between" align="center">
        <InputGroup startElement={<LuSearch />} width={{ base: "full", md: "72" }}>
          <Input
            placeholder={t("flow.list.search")}
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setPage(1);
            }}
            data-testid="flow-search"
          />
        </InputGroup>
        <HStack gap="3">
          <NativeSelect.Root size="sm" width="44">
            <NativeSelect.Field
              aria-label={t("flow.list.sortLabel")}
              value={sort}
              onChange={(event) => {
                setSort(event.target.value as Sort);
                setPage(1);
              }}
              data-testid="flow-sort"
            >
              {(Object.keys(SORTS) as Sort[]).map((key) => (
                <option key={key} value={key}>
                  {t(`flow.list.sort.${key}`)}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <LayoutToggle grid={grid} onGrid={setGrid} testId="flow-layout" />
        </HStack>
      </Flex>
      {content}
      {flowImport.element}
      <CreateFlowDialog open={creating} onClose={() => setCreating(false)} />
      <TextFieldsDialog
        open={renaming !== null}
        title={t("flow.list.renameTitle")}
        testId="flow-rename-dialog"
        fields={[{ name: "title", label: t("flow.list.name"), required: true, requiredKey: "flow.errors.titleRequired", initial: renaming?.title }]}
        onClose={() => setRenaming(null)}
        onSubmit={async (values) => {
          if (!renaming) return;
          await updateFlow({ variables: { id: renaming.id, input: { title: values.title.trim() } } });
          notify.success("renamed");
        }}
        describeFailure={(failure) => describeError(failure, i18n)}
        problemsOf={titleProblemsOf}
      />
      <ConfirmDeleteDialog open={deleting !== null} binKind="flow" subject={deleting?.title} onClose={() => setDeleting(null)} onConfirm={() => (deleting ? remove(deleting) : undefined)} />
    </>
  );
}
