import { Box, Button, Center, CloseButton, Drawer, HStack, IconButton, Input, InputGroup, Portal, Spinner, Stack, Text } from "@chakra-ui/react";
import { useMutation, useQuery } from "@apollo/client/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LuSearch, LuTrash2 } from "react-icons/lu";
import { ConfirmDeleteDialog } from "../../components/ConfirmDeleteDialog";
import { LoadFailed } from "../../components/LoadFailed";
import { notify } from "../../components/toaster";
import { describeError } from "../../errors";
import { useFormatters } from "../../format";
import { DeleteSearchRecordsDocument, SearchHistoryDocument } from "../../graphql/gql/graphql";

const HISTORY_PAGE_SIZE = 30;

interface SearchHistoryProps {
  open: boolean;
  onClose: () => void;
  /** The search shown now: marked in the list. */
  currentId: string | null;
  onOpen: (recordId: string) => void;
  onDeleted: (recordId: string) => void;
}

/** The user's past searches, newest first: reopening one shows it as it was kept (no model asked again); any can be deleted. */
export function SearchHistory({ open, onClose, currentId, onOpen, onDeleted }: SearchHistoryProps) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const [filter, setFilter] = useState("");
  const [pageSize, setPageSize] = useState(HISTORY_PAGE_SIZE);
  const [deleting, setDeleting] = useState<{ id: string; question: string } | null>(null);
  const history = useQuery(SearchHistoryDocument, { variables: { search: filter.trim() || null, page: 1, pageSize }, skip: !open, fetchPolicy: "cache-and-network" });
  const [deleteRecords] = useMutation(DeleteSearchRecordsDocument);
  const items = history.data?.searchHistory.items ?? [];
  const total = history.data?.searchHistory.total ?? 0;

  async function remove(id: string) {
    try {
      await deleteRecords({ variables: { ids: [id] } });
      notify.success("deleted");
      onDeleted(id);
      await history.refetch();
    } catch (error) {
      notify.error(describeError(error, i18n));
    }
  }

  return (
    <>
    <Drawer.Root open={open} onOpenChange={(event) => !event.open && onClose()} placement="end" size="sm">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content data-testid="search-history">
            <Drawer.Header>
              <Drawer.Title>{t("search.history.title")}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              <Stack gap="3">
                <InputGroup startElement={<LuSearch />}>
                  <Input size="sm" placeholder={t("search.history.filter")} value={filter} onChange={(event) => setFilter(event.target.value)} data-testid="search-history-filter" />
                </InputGroup>
                {history.error && items.length === 0 ? (
                  <LoadFailed error={history.error} onRetry={() => void history.refetch()} />
                ) : history.loading && items.length === 0 ? (
                  <Center py="10">
                    <Spinner color="brand.solid" />
                  </Center>
                ) : items.length === 0 ? (
                  <Text fontSize="sm" color="fg.muted" py="6" textAlign="center" data-testid="search-history-empty">
                    {t("search.history.empty")}
                  </Text>
                ) : (
                  <Stack gap="1.5">
                    {items.map((item) => (
                      <HStack
                        key={item.id}
                        gap="1"
                        ps="3"
                        pe="1"
                        py="2"
                        borderWidth="1px"
                        rounded="l2"
                        borderColor={item.id === currentId ? "brand.emphasized" : "border"}
                        bg={item.id === currentId ? "brand.subtle" : undefined}
                        _hover={{ bg: "bg.subtle" }}
                        data-testid="search-history-item"
                      >
                        <Box
                          as="button"
                          flex="1"
                          minWidth="0"
                          textAlign="start"
                          cursor="pointer"
                          onClick={() => {
                            onOpen(item.id);
                            onClose();
                          }}
                          data-testid="search-history-open"
                        >
                          <Text fontSize="sm" fontWeight="medium" truncate title={item.question}>
                            {item.question}
                          </Text>
                          <Text fontSize="xs" color="fg.muted">
                            {format.relativeTime(item.createdAt)} · {t("search.history.knowledgeBases", { count: item.knowledgeBaseIds.length })}
                          </Text>
                        </Box>
                        <IconButton size="xs" variant="ghost" aria-label={t("search.history.delete")} onClick={() => setDeleting({ id: item.id, question: item.question })} data-testid="search-history-delete">
                          <LuTrash2 />
                        </IconButton>
                      </HStack>
                    ))}
                    {items.length < total && (
                      <Button size="sm" variant="ghost" onClick={() => setPageSize((size) => size + HISTORY_PAGE_SIZE)} data-testid="search-history-more">
                        {t("search.history.more")}
                      </Button>
                    )}
                  </Stack>
                )}
              </Stack>
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
    <ConfirmDeleteDialog open={deleting !== null} onClose={() => setDeleting(null)} onConfirm={() => (deleting ? remove(deleting.id) : undefined)} subject={deleting?.question} />
    </>
  );
}
