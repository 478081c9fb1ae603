import { Badge, Box, Button, Center, Flex, HStack, IconButton, Input, InputGroup, LinkBox, LinkOverlay, Menu, Portal, SimpleGrid, Skeleton, Stack, Text } from "@chakra-ui/react";
import { useMutation, useQuery } from "@apollo/client/react";
import { useDeferredValue, useState } from "react";
import { useTranslation } from "react-i18next";
import { LuEllipsis, LuFileText, LuLayers, LuLibrary, LuPlus, LuSearch, LuSettings2, LuTrash2, LuUsers } from "react-icons/lu";
import { Link as RouterLink } from "react-router-dom";
import { ConfirmDeleteDialog } from "../../components/ConfirmDeleteDialog";
import { LoadFailed } from "../../components/LoadFailed";
import { PageHeader } from "../../components/PageHeader";
import { notify } from "../../components/toaster";
import { describeError } from "../../errors";
import { useFormatters } from "../../format";
import { DeleteKnowledgeBaseDocument, KnowledgeBasesDocument, type KnowledgeBaseCardFragment } from "../../graphql/gql/graphql";
import { useCurrentUser } from "../../session/useCurrentUser";
import { CreateKnowledgeBaseDialog } from "../../components/CreateKnowledgeBaseDialog";
import { KnowledgeAvatar } from "../../components/KnowledgeAvatar";
import { Pager } from "../../components/Pager";

const PAGE_SIZE = 24;

function KnowledgeCard({ kb, onDelete }: { kb: KnowledgeBaseCardFragment; onDelete: () => void }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const format = useFormatters(user?.timezone);
  return (
    <LinkBox
      as="article"
      bg="bg.panel"
      borderWidth="1px"
      rounded="l3"
      p="5"
      display="flex"
      flexDirection="column"
      gap="4"
      minHeight="52"
      transition="border-color 0.15s, box-shadow 0.15s"
      _hover={{ borderColor: "brand.emphasized", shadow: "sm" }}
      data-testid="kb-card"
    >
      <Flex justify="space-between" align="flex-start" gap="3">
        <KnowledgeAvatar name={kb.name} avatar={kb.avatar} size="lg" />
        <Menu.Root positioning={{ placement: "bottom-end" }}>
          <Menu.Trigger asChild>
            <IconButton variant="ghost" size="sm" aria-label={t("kb.list.actions")} position="relative" zIndex="1" data-testid="kb-card-menu">
              <LuEllipsis />
            </IconButton>
          </Menu.Trigger>
          <Portal>
            <Menu.Positioner>
              <Menu.Content>
                <Menu.Item value="configure" asChild>
                  <RouterLink to={`/knowledge/configuration?id=${kb.id}`}>
                    <LuSettings2 /> {t("kb.nav.configuration")}
                  </RouterLink>
                </Menu.Item>
                <Menu.Item value="delete" color="fg.error" _hover={{ bg: "bg.error", color: "fg.error" }} onSelect={onDelete} data-testid="kb-delete">
                  <LuTrash2 /> {t("common.delete")}
                </Menu.Item>
              </Menu.Content>
            </Menu.Positioner>
          </Portal>
        </Menu.Root>
      </Flex>
      <Stack gap="1" flex="1" minWidth="0">
        <LinkOverlay asChild>
          <RouterLink to={`/knowledge/dataset?id=${kb.id}`}>
            <Text fontWeight="semibold" fontSize="lg" lineClamp={1} title={kb.name} data-testid="kb-card-name">
              {kb.name}
            </Text>
          </RouterLink>
        </LinkOverlay>
        <Text fontSize="sm" color={kb.description ? "fg.muted" : "fg.subtle"} lineClamp={2}>
          {kb.description || t("kb.list.noDescription")}
        </Text>
      </Stack>
      <Stack gap="2">
        <HStack gap="2" wrap="wrap">
          <Badge variant="subtle" size="sm" data-testid="kb-card-documents">
            <LuFileText /> {t("kb.list.documents", { count: kb.documentCount, formatted: format.number(kb.documentCount) })}
          </Badge>
          <Badge variant="subtle" size="sm">
            <LuLayers /> {t("kb.list.chunks", { count: kb.chunkCount, formatted: format.number(kb.chunkCount) })}
          </Badge>
          {kb.permission === "team" && (
            <Badge variant="subtle" colorPalette="brand" size="sm">
              <LuUsers /> {t("kb.permission.team")}
            </Badge>
          )}
        </HStack>
        <Text fontSize="xs" color="fg.subtle">
          {t("kb.list.updated", { date: format.dateTime(kb.updatedAt) })}
        </Text>
      </Stack>
    </LinkBox>
  );
}

export default function KnowledgeListPage() {
  const { t, i18n } = useTranslation();
  const [search, setSearch] = useState("");
  const deferredSearch = useDeferredValue(search.trim());
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<KnowledgeBaseCardFragment | null>(null);
  const { data, loading, error, refetch } = useQuery(KnowledgeBasesDocument, {
    variables: { search: deferredSearch || null, page, pageSize: PAGE_SIZE },
  });
  const [deleteKnowledgeBase] = useMutation(DeleteKnowledgeBaseDocument);
  const items = data?.knowledgeBases.items ?? [];

  async function remove(kb: KnowledgeBaseCardFragment) {
    try {
      await deleteKnowledgeBase({
        variables: { id: kb.id },
        update(cache) {
          cache.evict({ id: cache.identify({ __typename: "KnowledgeBase", id: kb.id }) });
          cache.gc();
        },
      });
      notify.success("deleted");
      await refetch();
    } catch (failure) {
      notify.error(describeError(failure, i18n));
    }
  }

  return (
    <>
      <PageHeader
        title={t("pages.knowledge.title")}
        description={t("pages.knowledge.summary")}
        actions={
          <HStack gap="3">
            <InputGroup startElement={<LuSearch />} width={{ base: "full", md: "64" }}>
              <Input
                placeholder={t("kb.list.search")}
                value={search}
                onChange={(event) => {
                  setSearch(event.target.value);
                  setPage(1);
                }}
                data-testid="kb-search"
              />
            </InputGroup>
            <Button colorPalette="brand" onClick={() => setCreating(true)} flexShrink={0} data-testid="kb-create">
              <LuPlus /> {t("kb.list.create")}
            </Button>
          </HStack>
        }
      />
      {loading && !data ? (
        <SimpleGrid columns={{ base: 1, sm: 2, lg: 3, xl: 4 }} gap="5">
          {[0, 1, 2, 3].map((n) => (
            <Skeleton key={n} height="52" rounded="l3" />
          ))}
        </SimpleGrid>
      ) : error && !data ? (
        <LoadFailed error={error} onRetry={() => void refetch()} />
      ) : items.length === 0 ? (
        <Center py="16" px="6" flexDirection="column" gap="3" textAlign="center" bg="bg.panel" borderWidth="1px" borderStyle="dashed" rounded="l3" data-testid="kb-empty">
          <Box rounded="full" bg="brand.subtle" color="brand.fg" p="4">
            <LuLibrary size="28" />
          </Box>
          <Text fontWeight="semibold">{deferredSearch ? t("kb.list.noMatch", { search: deferredSearch }) : t("kb.list.emptyTitle")}</Text>
          {!deferredSearch && (
            <>
              <Text fontSize="sm" color="fg.muted" maxWidth="md">
                {t("kb.list.emptyBody")}
              </Text>
              <Button colorPalette="brand" size="sm" onClick={() => setCreating(true)}>
                <LuPlus /> {t("kb.list.create")}
              </Button>
            </>
          )}
        </Center>
      ) : (
        <Stack gap="6">
          <SimpleGrid columns={{ base: 1, sm: 2, lg: 3, xl: 4 }} gap="5" data-testid="kb-list">
            {items.map((kb) => (
              <KnowledgeCard key={kb.id} kb={kb} onDelete={() => setDeleting(kb)} />
            ))}
          </SimpleGrid>
          <Pager page={page} pageSize={PAGE_SIZE} total={data?.knowledgeBases.total ?? 0} onPage={setPage} />
        </Stack>
      )}
      <CreateKnowledgeBaseDialog open={creating} onClose={() => setCreating(false)} pageOf={(id) => `/knowledge/configuration?id=${id}`} />
      <ConfirmDeleteDialog open={deleting !== null} binKind="knowledgeBase" subject={deleting?.name} onClose={() => setDeleting(null)} onConfirm={() => (deleting ? remove(deleting) : undefined)} />
    </>
  );
}
