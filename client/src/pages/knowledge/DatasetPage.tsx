import { Badge, Box, Button, Center, Checkbox, Flex, HStack, Icon, IconButton, Input, InputGroup, Link, Menu, NativeSelect, Portal, Skeleton, Stack, Switch, Table, Text } from "@chakra-ui/react";
import { useApolloClient, useMutation, useQuery } from "@apollo/client/react";
import { useDeferredValue, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  LuCirclePlay,
  LuCircleStop,
  LuDownload,
  LuEllipsis,
  LuFilePlus,
  LuFileText,
  LuGlobe,
  LuLayers,
  LuPencil,
  LuPlus,
  LuRefreshCw,
  LuRotateCw,
  LuSearch,
  LuSettings2,
  LuTrash2,
  LuUpload,
} from "react-icons/lu";
import { Link as RouterLink } from "react-router-dom";
import { ConfirmDeleteDialog } from "../../components/ConfirmDeleteDialog";
import { notify } from "../../components/toaster";
import { describeError } from "../../errors";
import { useFormatters } from "../../format";
import {
  CancelParsingDocument,
  CrawlWebPageDocument,
  CreateEmptyDocumentDocument,
  DeleteDocumentsDocument,
  DocumentsDocument,
  KnowledgeBaseDocument,
  RenameDocumentDocument,
  RunParsingDocument,
  SetDocumentsEnabledDocument,
  type DocumentRowFragment,
  type KnowledgeBaseSettingsFragment,
} from "../../graphql/gql/graphql";
import { useCurrentUser } from "../../session/useCurrentUser";
import { ParserSettingsDialog } from "./dataset/ParserSettingsDialog";
import { ParsingStatus } from "./dataset/ParsingStatus";
import { RUN, RUN_KEYS, RUN_STATUSES } from "../../documents/runStatus";
import { UploadDialog } from "./dataset/UploadDialog";
import { useDocumentProgress } from "./dataset/useDocumentProgress";
import { describeTransferError, downloadDocument, formatBytes } from "../../documents/documentTransfer";
import { KnowledgeBaseLayout } from "./KnowledgeBaseLayout";
import { Pager } from "./Pager";
import { SectionHeading } from "./SectionHeading";
import { TextFieldsDialog } from "../../components/TextFieldsDialog";

const PAGE_SIZE = 20;

type Dialog = { kind: "upload" } | { kind: "empty" } | { kind: "crawl" } | { kind: "rename"; document: DocumentRowFragment } | null;

function isHttpUrl(value: string): boolean {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** "12.3 s", "4 min 5 s". */
function useDuration() {
  const { t } = useTranslation();
  const format = useFormatters();
  return (seconds: number) => {
    if (seconds < 60) return t("kb.dataset.seconds", { value: format.number(Math.round(seconds * 10) / 10, 1) });
    return t("kb.dataset.minutes", { minutes: format.number(Math.floor(seconds / 60)), seconds: format.number(Math.round(seconds % 60)) });
  };
}

function Dataset({ kb }: { kb: KnowledgeBaseSettingsFragment }) {
  const { t, i18n } = useTranslation();
  const user = useCurrentUser();
  const format = useFormatters(user?.timezone);
  const duration = useDuration();
  const [search, setSearch] = useState("");
  const deferredSearch = useDeferredValue(search.trim());
  const [status, setStatus] = useState("");
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [dialog, setDialog] = useState<Dialog>(null);
  const [parserOf, setParserOf] = useState<DocumentRowFragment | null>(null);
  const [deleting, setDeleting] = useState<DocumentRowFragment[] | null>(null);
  const [busy, setBusy] = useState(false);

  const progress = useDocumentProgress(kb.id);
  const { data, loading, error, refetch } = useQuery(DocumentsDocument, {
    variables: { knowledgeBaseId: kb.id, search: deferredSearch || null, runs: status ? [status] : null, page, pageSize: PAGE_SIZE },
  });
  const client = useApolloClient();
  const refreshAll = { refetchQueries: [DocumentsDocument, KnowledgeBaseDocument] };
  const [runParsing] = useMutation(RunParsingDocument);
  const [cancelParsing] = useMutation(CancelParsingDocument);
  const [setEnabled] = useMutation(SetDocumentsEnabledDocument);
  const [deleteDocuments] = useMutation(DeleteDocumentsDocument, refreshAll);
  const [renameDocument] = useMutation(RenameDocumentDocument);
  const [createEmpty] = useMutation(CreateEmptyDocumentDocument, refreshAll);
  const [crawl] = useMutation(CrawlWebPageDocument, refreshAll);

  const documents = (data?.documents.items ?? []).map(progress.current);
  const selectedDocuments = documents.filter((document) => selected.has(document.id));
  const allSelected = documents.length > 0 && selectedDocuments.length === documents.length;

  async function act(action: () => Promise<unknown>, success: Parameters<typeof notify.success>[0] = "operated") {
    setBusy(true);
    try {
      await action();
      notify.success(success);
    } catch (failure) {
      notify.error(describeError(failure, i18n));
    } finally {
      setBusy(false);
    }
  }

  const run = (ids: string[]) => act(() => runParsing({ variables: { ids } }));
  const cancel = (ids: string[]) => act(() => cancelParsing({ variables: { ids } }));
  const enable = (ids: string[], enabled: boolean) => act(() => setEnabled({ variables: { ids, enabled } }), "modified");

  async function remove(list: DocumentRowFragment[]) {
    try {
      await deleteDocuments({ variables: { ids: list.map((document) => document.id) } });
      setSelected(new Set());
      notify.success("deleted");
    } catch (failure) {
      notify.error(describeError(failure, i18n));
    }
  }

  async function download(document: DocumentRowFragment) {
    try {
      await downloadDocument(document.id, document.name);
    } catch (failure) {
      notify.error(describeTransferError(failure, (key) => t(key), (key) => i18n.exists(key), "errors.fileError"));
    }
  }

  function toggle(id: string, on: boolean) {
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  const chunksLink = (document: DocumentRowFragment) => `/knowledge/dataset/chunk?id=${kb.id}&doc=${document.id}`;

  return (
    <>
      <SectionHeading
        page="dataset"
        actions={
          <Menu.Root positioning={{ placement: "bottom-end" }}>
            <Menu.Trigger asChild>
              <Button colorPalette="brand" data-testid="add-file">
                <LuPlus /> {t("kb.dataset.addFile")}
              </Button>
            </Menu.Trigger>
            <Portal>
              <Menu.Positioner>
                <Menu.Content>
                  <Menu.Item value="upload" onSelect={() => setDialog({ kind: "upload" })} data-testid="add-upload">
                    <LuUpload /> {t("kb.dataset.upload")}
                  </Menu.Item>
                  <Menu.Item value="empty" onSelect={() => setDialog({ kind: "empty" })} data-testid="add-empty">
                    <LuFilePlus /> {t("kb.dataset.emptyFile")}
                  </Menu.Item>
                  <Menu.Item value="crawl" onSelect={() => setDialog({ kind: "crawl" })} data-testid="add-crawl">
                    <LuGlobe /> {t("kb.dataset.webCrawl")}
                  </Menu.Item>
                </Menu.Content>
              </Menu.Positioner>
            </Portal>
          </Menu.Root>
        }
      />

      <Box bg="bg.panel" borderWidth="1px" rounded="l3" overflow="hidden">
        <Flex px="4" py="3" gap="3" align="center" wrap="wrap" borderBottomWidth="1px">
          {selectedDocuments.length > 0 ? (
            <HStack gap="2" wrap="wrap" flex="1" data-testid="bulk-actions">
              <Text fontSize="sm" fontWeight="medium" me="2">
                {t("kb.dataset.selected", { count: selectedDocuments.length })}
              </Text>
              <Button size="xs" variant="outline" loading={busy} onClick={() => void run(selectedDocuments.map((d) => d.id))} data-testid="bulk-run">
                <LuCirclePlay /> {t("kb.dataset.run")}
              </Button>
              <Button size="xs" variant="outline" loading={busy} onClick={() => void cancel(selectedDocuments.map((d) => d.id))} data-testid="bulk-cancel">
                <LuCircleStop /> {t("kb.dataset.cancel")}
              </Button>
              <Button size="xs" variant="outline" loading={busy} onClick={() => void enable(selectedDocuments.map((d) => d.id), true)}>
                {t("kb.dataset.enable")}
              </Button>
              <Button size="xs" variant="outline" loading={busy} onClick={() => void enable(selectedDocuments.map((d) => d.id), false)}>
                {t("kb.dataset.disable")}
              </Button>
              <Button size="xs" variant="outline" colorPalette="red" onClick={() => setDeleting(selectedDocuments)} data-testid="bulk-delete">
                <LuTrash2 /> {t("common.delete")}
              </Button>
            </HStack>
          ) : (
            <Text fontSize="sm" color="fg.muted" flex="1">
              {data ? t("kb.dataset.total", { count: data.documents.total, formatted: format.number(data.documents.total) }) : ""}
            </Text>
          )}
          <NativeSelect.Root size="sm" width="44">
            <NativeSelect.Field
              value={status}
              onChange={(event) => {
                setStatus(event.target.value);
                setPage(1);
                setSelected(new Set());
              }}
              aria-label={t("kb.dataset.statusFilter")}
              data-testid="status-filter"
            >
              <option value="">{t("kb.dataset.allStatuses")}</option>
              {RUN_STATUSES.map((run) => (
                <option key={run} value={run}>
                  {t(`kb.run.${RUN_KEYS[run]}`)}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <InputGroup startElement={<LuSearch />} width={{ base: "full", sm: "60" }}>
            <Input
              size="sm"
              placeholder={t("kb.dataset.search")}
              value={search}
              onChange={(event) => {
                setSearch(event.target.value);
                setPage(1);
                setSelected(new Set());
              }}
              data-testid="document-search"
            />
          </InputGroup>
        </Flex>

        {loading && !data ? (
          <Stack p="6" gap="3">
            <Skeleton height="8" />
            <Skeleton height="8" />
            <Skeleton height="8" />
          </Stack>
        ) : error && !data ? (
          <Center py="12" flexDirection="column" gap="3" role="alert">
            <Text color="fg.muted">{describeError(error, i18n)}</Text>
            <Button size="sm" variant="outline" onClick={() => void refetch()}>
              <LuRefreshCw /> {t("common.retry")}
            </Button>
          </Center>
        ) : documents.length === 0 ? (
          <Center py="16" px="6" flexDirection="column" gap="3" textAlign="center" data-testid="documents-empty">
            <Box rounded="full" bg="brand.subtle" color="brand.fg" p="4">
              <LuFileText size="26" />
            </Box>
            <Text fontWeight="semibold">{deferredSearch || status ? t("kb.dataset.noMatch") : t("kb.dataset.emptyTitle")}</Text>
            {!deferredSearch && !status && (
              <>
                <Text fontSize="sm" color="fg.muted" maxWidth="md">
                  {t("kb.dataset.emptyBody")}
                </Text>
                <Button colorPalette="brand" size="sm" onClick={() => setDialog({ kind: "upload" })}>
                  <LuUpload /> {t("kb.dataset.upload")}
                </Button>
              </>
            )}
          </Center>
        ) : (
          <Table.ScrollArea>
            <Table.Root size="sm" interactive data-testid="document-table">
              <Table.Header>
                <Table.Row bg="bg.subtle">
                  <Table.ColumnHeader width="10">
                    <Checkbox.Root
                      size="sm"
                      colorPalette="brand"
                      checked={allSelected ? true : selectedDocuments.length > 0 ? "indeterminate" : false}
                      onCheckedChange={(details) => setSelected(details.checked === true ? new Set(documents.map((d) => d.id)) : new Set())}
                      aria-label={t("kb.dataset.selectAll")}
                    >
                      <Checkbox.HiddenInput />
                      <Checkbox.Control />
                    </Checkbox.Root>
                  </Table.ColumnHeader>
                  <Table.ColumnHeader>{t("kb.dataset.name")}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t("kb.dataset.chunks")}</Table.ColumnHeader>
                  <Table.ColumnHeader>{t("kb.field.chunkMethod")}</Table.ColumnHeader>
                  <Table.ColumnHeader>{t("kb.dataset.enabled")}</Table.ColumnHeader>
                  <Table.ColumnHeader minWidth="48">{t("kb.dataset.status")}</Table.ColumnHeader>
                  <Table.ColumnHeader>{t("kb.dataset.began")}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t("kb.dataset.action")}</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {documents.map((document) => {
                  const running = document.run === RUN.running;
                  return (
                    <Table.Row key={document.id} data-testid="document-row" data-selected={selected.has(document.id) || undefined}>
                      <Table.Cell>
                        <Checkbox.Root size="sm" colorPalette="brand" checked={selected.has(document.id)} onCheckedChange={(details) => toggle(document.id, details.checked === true)} aria-label={document.name}>
                          <Checkbox.HiddenInput />
                          <Checkbox.Control />
                        </Checkbox.Root>
                      </Table.Cell>
                      <Table.Cell maxWidth="72">
                        <HStack gap="2.5" minWidth="0">
                          <Icon as={LuFileText} color="fg.subtle" flexShrink={0} />
                          <Stack gap="0" minWidth="0">
                            <Link asChild fontWeight="medium" color="fg" _hover={{ color: "brand.fg" }}>
                              <RouterLink to={`/document/${document.id}`} target="_blank" title={document.name} data-testid="document-name">
                                <Text truncate>{document.name}</Text>
                              </RouterLink>
                            </Link>
                            <Text fontSize="xs" color="fg.muted" whiteSpace="nowrap" title={t("kb.dataset.uploaded")}>
                              {formatBytes(document.size, format.number)} · {format.dateTime(document.createdAt)}
                            </Text>
                          </Stack>
                        </HStack>
                      </Table.Cell>
                      <Table.Cell textAlign="end">
                        <Link asChild color="brand.fg" fontWeight="medium" title={t("kb.dataset.viewChunks")}>
                          <RouterLink to={chunksLink(document)} data-testid="document-chunks">
                            {format.number(document.chunkCount)}
                          </RouterLink>
                        </Link>
                      </Table.Cell>
                      <Table.Cell>
                        <Badge variant="outline" size="sm" whiteSpace="nowrap">
                          {t(`chunkMethods.${document.chunkMethod}.label`, { defaultValue: document.chunkMethod })}
                        </Badge>
                      </Table.Cell>
                      <Table.Cell>
                        <Switch.Root size="sm" colorPalette="brand" checked={document.enabled} onCheckedChange={(details) => void enable([document.id], details.checked)} aria-label={t("kb.dataset.enabled")} data-testid="document-enabled">
                          <Switch.HiddenInput />
                          <Switch.Control />
                        </Switch.Root>
                      </Table.Cell>
                      <Table.Cell minWidth="48" maxWidth="64">
                        <ParsingStatus document={document} />
                      </Table.Cell>
                      <Table.Cell fontSize="xs" color="fg.muted" whiteSpace="nowrap">
                        {document.processBeginAt ? (
                          <Stack gap="0">
                            <Text>{format.dateTime(document.processBeginAt)}</Text>
                            {!running && document.processDuration > 0 && <Text color="fg.subtle">{duration(document.processDuration)}</Text>}
                          </Stack>
                        ) : (
                          "—"
                        )}
                      </Table.Cell>
                      <Table.Cell textAlign="end">
                        <HStack gap="0.5" justify="flex-end">
                          {running ? (
                            <IconButton size="sm" variant="ghost" colorPalette="red" aria-label={t("kb.dataset.cancel")} title={t("kb.dataset.cancel")} onClick={() => void cancel([document.id])} data-testid="document-cancel">
                              <LuCircleStop />
                            </IconButton>
                          ) : (
                            <IconButton
                              size="sm"
                              variant="ghost"
                              colorPalette="brand"
                              aria-label={document.run === RUN.unstarted ? t("kb.dataset.run") : t("kb.dataset.rerun")}
                              title={document.run === RUN.unstarted ? t("kb.dataset.run") : t("kb.dataset.rerun")}
                              onClick={() => void run([document.id])}
                              data-testid="document-run"
                            >
                              {document.run === RUN.unstarted ? <LuCirclePlay /> : <LuRotateCw />}
                            </IconButton>
                          )}
                          <Menu.Root positioning={{ placement: "bottom-end" }}>
                            <Menu.Trigger asChild>
                              <IconButton size="sm" variant="ghost" aria-label={t("kb.list.actions")} data-testid="document-menu">
                                <LuEllipsis />
                              </IconButton>
                            </Menu.Trigger>
                            <Portal>
                              <Menu.Positioner>
                                <Menu.Content>
                                  <Menu.Item value="chunks" asChild>
                                    <RouterLink to={chunksLink(document)}>
                                      <LuLayers /> {t("kb.dataset.viewChunks")}
                                    </RouterLink>
                                  </Menu.Item>
                                  <Menu.Item value="parser" disabled={running} onSelect={() => setParserOf(document)} data-testid="document-parser">
                                    <LuSettings2 /> {t("kb.dataset.parserTitle")}
                                  </Menu.Item>
                                  <Menu.Item value="rename" onSelect={() => setDialog({ kind: "rename", document })} data-testid="document-rename">
                                    <LuPencil /> {t("kb.dataset.rename")}
                                  </Menu.Item>
                                  <Menu.Item value="download" onSelect={() => void download(document)} data-testid="document-download">
                                    <LuDownload /> {t("kb.dataset.download")}
                                  </Menu.Item>
                                  <Menu.Item value="delete" color="fg.error" _hover={{ bg: "bg.error", color: "fg.error" }} onSelect={() => setDeleting([document])} data-testid="document-delete">
                                    <LuTrash2 /> {t("common.delete")}
                                  </Menu.Item>
                                </Menu.Content>
                              </Menu.Positioner>
                            </Portal>
                          </Menu.Root>
                        </HStack>
                      </Table.Cell>
                    </Table.Row>
                  );
                })}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
        )}
        {data && data.documents.total > PAGE_SIZE && (
          <Box px="4" py="3" borderTopWidth="1px">
            <Pager page={page} pageSize={PAGE_SIZE} total={data.documents.total} onPage={(next) => (setPage(next), setSelected(new Set()))} />
          </Box>
        )}
      </Box>

      <UploadDialog
        open={dialog?.kind === "upload"}
        knowledgeBaseId={kb.id}
        onClose={() => setDialog(null)}
        onUploaded={async (ids, parse) => {
          notify.success("uploaded");
          if (parse && ids.length > 0) await runParsing({ variables: { ids } }).catch((failure: unknown) => notify.error(describeError(failure, i18n)));
          await Promise.all([refetch(), client.refetchQueries({ include: [KnowledgeBaseDocument] })]);
        }}
      />
      <TextFieldsDialog
        open={dialog?.kind === "empty"}
        title={t("kb.dataset.emptyFile")}
        testId="empty-file-dialog"
        fields={[{ name: "name", label: t("kb.dataset.fileName"), required: true, requiredKey: "errors.knowledge.documentNameRequired" }]}
        onClose={() => setDialog(null)}
        onSubmit={async (values) => {
          await createEmpty({ variables: { knowledgeBaseId: kb.id, name: values.name.trim() } });
          notify.success("created");
        }}
        describeFailure={(failure) => describeError(failure, i18n)}
      />
      <TextFieldsDialog
        open={dialog?.kind === "crawl"}
        title={t("kb.dataset.webCrawl")}
        testId="crawl-dialog"
        fields={[
          { name: "url", label: "URL", type: "url", placeholder: "https://", required: true, requiredKey: "errors.knowledge.crawlUrlInvalid", check: (value) => (isHttpUrl(value) ? undefined : { key: "errors.knowledge.crawlUrlInvalid" }) },
          { name: "name", label: t("kb.dataset.fileName"), placeholder: t("kb.dataset.crawlNameHint") },
        ]}
        submitLabel={t("kb.dataset.crawl")}
        onClose={() => setDialog(null)}
        onSubmit={async (values) => {
          await crawl({ variables: { knowledgeBaseId: kb.id, url: values.url.trim(), name: values.name.trim() || null } });
          notify.success("created");
        }}
        describeFailure={(failure) => describeError(failure, i18n)}
      />
      <TextFieldsDialog
        open={dialog?.kind === "rename"}
        title={t("kb.dataset.rename")}
        testId="rename-dialog"
        fields={[{ name: "name", label: t("kb.dataset.fileName"), required: true, requiredKey: "errors.knowledge.documentNameRequired", initial: dialog?.kind === "rename" ? dialog.document.name : "" }]}
        onClose={() => setDialog(null)}
        onSubmit={async (values) => {
          if (dialog?.kind !== "rename") return;
          await renameDocument({ variables: { id: dialog.document.id, name: values.name.trim() } });
          notify.success("renamed");
        }}
        describeFailure={(failure) => describeError(failure, i18n)}
      />
      <ParserSettingsDialog document={parserOf} onClose={() => setParserOf(null)} onChanged={progress.forget} />
      <ConfirmDeleteDialog
        open={deleting !== null}
        subject={deleting?.map((document) => document.name).join(", ")}
        onClose={() => setDeleting(null)}
        onConfirm={() => (deleting ? remove(deleting) : undefined)}
      />
    </>
  );
}

export default function DatasetPage() {
  return <KnowledgeBaseLayout section="dataset">{(kb) => <Dataset kb={kb} />}</KnowledgeBaseLayout>;
}
