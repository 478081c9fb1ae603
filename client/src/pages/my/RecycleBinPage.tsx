import { useMutation, useQuery } from "@apollo/client/react";
import { Badge, Box, Button, Center, Checkbox, HStack, Icon, Input, InputGroup, NativeSelect, Skeleton, Stack, Table, Text } from "@chakra-ui/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { IconType } from "react-icons";
import { LuBot, LuDatabase, LuFile, LuFileText, LuMessageSquare, LuRecycle, LuSearch, LuTrash2, LuUndo2, LuWorkflow } from "react-icons/lu";
import { ConfirmDeleteDialog } from "../../components/ConfirmDeleteDialog";
import { LoadFailed } from "../../components/LoadFailed";
import { Pager } from "../../components/Pager";
import { notify } from "../../components/toaster";
import { describeError } from "../../errors";
import { useFormatters } from "../../format";
import { EmptyRecycleBinDocument, PurgeFromBinDocument, RecycleBinDocument, RestoreFromBinDocument, type RecycleBinQuery, type WorkKind } from "../../graphql/gql/graphql";
import { useDebouncedValue } from "../../hooks/useDebouncedValue";
import { useSelection } from "../../hooks/useSelection";

const PAGE_SIZE = 20;
const SEARCH_PAUSE_MS = 300;

/** The kinds a delete moves into the bin, with their icons (a search is removed from the history outright). */
const KINDS: { kind: WorkKind; icon: IconType }[] = [
  { kind: "knowledgeBase", icon: LuDatabase },
  { kind: "document", icon: LuFileText },
  { kind: "assistant", icon: LuBot },
  { kind: "conversation", icon: LuMessageSquare },
  { kind: "flow", icon: LuWorkflow },
  { kind: "file", icon: LuFile },
];

type BinRow = RecycleBinQuery["recycleBin"]["items"][number];
type Confirming = { what: "purge"; rows: BinRow[] } | { what: "empty" } | null;

/** /my/recycle-bin: what the user deleted (and everything deleted in the teams they own), to restore or delete forever. */
export default function RecycleBinPage() {
  const { t, i18n } = useTranslation();
  const { dateTime } = useFormatters();
  const [kind, setKind] = useState<WorkKind | "">("");
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const settledSearch = useDebouncedValue(search.trim(), SEARCH_PAUSE_MS);
  const selection = useSelection();
  const { data: current, previousData, loading, error, refetch } = useQuery(RecycleBinDocument, {
    variables: { kind: kind || null, search: settledSearch || null, page, pageSize: PAGE_SIZE },
    fetchPolicy: "cache-and-network",
  });
  const [restoreFromBin, restoring] = useMutation(RestoreFromBinDocument);
  const [purgeFromBin] = useMutation(PurgeFromBinDocument);
  const [emptyRecycleBin] = useMutation(EmptyRecycleBinDocument);
  const data = current ?? previousData;
  const items = data?.recycleBin.items ?? [];
  const selected = items.filter((item) => selection.has(item.id));

  async function afterChange() {
    selection.clear();
    // Restored items are live again everywhere: the other pages' lists read them afresh.
    await refetch();
  }

  async function restore(rows: BinRow[]) {
    try {
      const { data: restored } = await restoreFromBin({ variables: { ids: rows.map((r) => r.id) }, refetchQueries: "active" });
      const renamed = (restored?.restoreFromBin ?? []).filter((item) => item.previousName);
      if (renamed.length > 0) notify.info(t("bin.restoredRenamed", { names: renamed.map((item) => t("bin.renamedAs", { from: item.previousName, to: item.name })).join(", ") }));
      else notify.success("operated");
    } catch (failure) {
      notify.error(describeError(failure, i18n));
    }
    await afterChange();
  }

  async function purge() {
    if (!confirming) return;
    try {
      if (confirming.what === "empty") await emptyRecycleBin();
      else await purgeFromBin({ variables: { ids: confirming.rows.map((r) => r.id) } });
      notify.success("deleted");
    } catch (failure) {
      notify.error(describeError(failure, i18n));
    }
    if (page > 1 && confirming.what === "empty") setPage(1);
    await afterChange();
  }

  const kindIcon = (k: WorkKind) => KINDS.find((entry) => entry.kind === k)?.icon ?? LuFile;
  const ticked = selected.length;

  let content;
  if (error && !data) content = <LoadFailed error={error} onRetry={() => void refetch()} />;
  else if (loading && !data) content = <Skeleton height="40" rounded="l3" />;
  else if (items.length === 0)
    content = (
      <Center py="16" flexDirection="column" gap="3" data-testid="bin-empty" color="fg.muted">
        <Icon as={LuRecycle} boxSize="10" />
        <Text>{settledSearch || kind ? t("bin.noMatch") : t("bin.empty")}</Text>
      </Center>
    );
  else
    content = (
      <Table.ScrollArea borderWidth="1px" rounded="l3">
        <Table.Root size="sm" interactive data-testid="bin-table">
          <Table.Header>
            <Table.Row bg="bg.subtle">
              <Table.ColumnHeader width="10">
                <Checkbox.Root
                  size="sm"
                  colorPalette="brand"
                  checked={ticked > 0 && ticked === items.length ? true : ticked > 0 ? "indeterminate" : false}
                  onCheckedChange={(details) => (details.checked === true ? selection.selectOnly(items.map((item) => item.id)) : selection.clear())}
                  aria-label={t("bin.selectAll")}
                  data-testid="bin-select-all"
                >
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                </Checkbox.Root>
              </Table.ColumnHeader>
              <Table.ColumnHeader>{t("bin.column.name")}</Table.ColumnHeader>
              <Table.ColumnHeader>{t("bin.column.where")}</Table.ColumnHeader>
              <Table.ColumnHeader>{t("bin.column.deletedBy")}</Table.ColumnHeader>
              <Table.ColumnHeader>{t("bin.column.deletedAt")}</Table.ColumnHeader>
              <Table.ColumnHeader>{t("bin.column.daysLeft")}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">{t("bin.column.actions")}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {items.map((item) => (
              <Table.Row key={item.id} data-testid="bin-row" data-kind={item.kind} data-name={item.name}>
                <Table.Cell>
                  <Checkbox.Root size="sm" colorPalette="brand" checked={selection.has(item.id)} onCheckedChange={(details) => selection.toggle(item.id, details.checked === true)} aria-label={t("bin.select", { name: item.name })} data-testid="bin-row-select">
                    <Checkbox.HiddenInput />
                    <Checkbox.Control />
                  </Checkbox.Root>
                </Table.Cell>
                <Table.Cell>
                  <HStack gap="2" minWidth="0">
                    <Icon as={kindIcon(item.kind)} color="fg.muted" aria-label={t(`bin.kind.${item.kind}`)} />
                    <Stack gap="0" minWidth="0">
                      <Text truncate maxWidth="xs" fontWeight="medium">
                        {item.name}
                      </Text>
                      <Text fontSize="xs" color="fg.muted">
                        {t(`bin.kind.${item.kind}`)}
                        {item.alsoBinned > 0 && ` · ${t("bin.alsoBinned", { count: item.alsoBinned })}`}
                      </Text>
                    </Stack>
                  </HStack>
                </Table.Cell>
                <Table.Cell color="fg.muted">{item.parentName ?? "—"}</Table.Cell>
                <Table.Cell>{item.binnedBy}</Table.Cell>
                <Table.Cell color="fg.muted" whiteSpace="nowrap">
                  {dateTime(item.binnedAt)}
                </Table.Cell>
                <Table.Cell>
                  <Badge colorPalette={item.daysLeft <= 3 ? "red" : "gray"} variant="subtle">
                    {t("bin.daysLeft", { count: item.daysLeft })}
                  </Badge>
                </Table.Cell>
                <Table.Cell textAlign="end" whiteSpace="nowrap">
                  <Button size="xs" variant="ghost" onClick={() => void restore([item])} data-testid="bin-restore-one">
                    <LuUndo2 /> {t("bin.restore")}
                  </Button>
                  <Button size="xs" variant="ghost" colorPalette="red" onClick={() => setConfirming({ what: "purge", rows: [item] })} data-testid="bin-purge-one">
                    <LuTrash2 /> {t("bin.deleteForever")}
                  </Button>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
    );

  return (
    <Stack gap="4" data-testid="recycle-bin-page">
      <Text color="fg.muted" fontSize="sm">
        {data ? (data.recycleBin.retentionDays > 0 ? t("bin.retention", { count: data.recycleBin.retentionDays }) : t("bin.off")) : t("pages.recycleBin.description")}
      </Text>
      <HStack gap="3" wrap="wrap">
        <NativeSelect.Root size="sm" width="48">
          <NativeSelect.Field
            value={kind}
            onChange={(event) => {
              setKind(event.currentTarget.value as WorkKind | "");
              setPage(1);
              selection.clear();
            }}
            aria-label={t("bin.filterKind")}
            data-testid="bin-kind-filter"
          >
            <option value="">{t("bin.allKinds")}</option>
            {KINDS.map((entry) => (
              <option key={entry.kind} value={entry.kind}>
                {t(`bin.kind.${entry.kind}`)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <InputGroup startElement={<LuSearch />} width="64">
          <Input
            size="sm"
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPage(1);
            }}
            placeholder={t("bin.search")}
            data-testid="bin-search"
          />
        </InputGroup>
        <Box flex="1" />
        <Button size="sm" variant="outline" disabled={ticked === 0} loading={restoring.loading} onClick={() => void restore(selected)} data-testid="bin-restore-selected">
          <LuUndo2 /> {t("bin.restoreSelected", { count: ticked })}
        </Button>
        <Button size="sm" variant="outline" colorPalette="red" disabled={ticked === 0} onClick={() => setConfirming({ what: "purge", rows: selected })} data-testid="bin-purge-selected">
          <LuTrash2 /> {t("bin.deleteSelected", { count: ticked })}
        </Button>
        <Button size="sm" colorPalette="red" disabled={(data?.recycleBin.total ?? 0) === 0} onClick={() => setConfirming({ what: "empty" })} data-testid="bin-empty-all">
          {t("bin.emptyBin")}
        </Button>
      </HStack>
      {content}
      {data && data.recycleBin.total > PAGE_SIZE && <Pager page={page} pageSize={PAGE_SIZE} total={data.recycleBin.total} onPage={setPage} />}
      <ConfirmDeleteDialog
        open={confirming !== null}
        subject={confirming?.what === "purge" ? confirming.rows.map((r) => r.name).join(", ") : t("bin.emptySubject", { count: data?.recycleBin.total ?? 0 })}
        onClose={() => setConfirming(null)}
        onConfirm={purge}
      >
        <Text mt="3" fontSize="sm" color="fg.error">
          {t("bin.foreverWarning")}
        </Text>
      </ConfirmDeleteDialog>
    </Stack>
  );
}
