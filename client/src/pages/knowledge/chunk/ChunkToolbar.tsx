import { Box, Button, Checkbox, Flex, HStack, Input, InputGroup, SegmentGroup } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuMerge, LuSearch, LuTrash2 } from "react-icons/lu";
import { useNavigate } from "react-router-dom";
import { mergeAddress } from "../../../documents/chunkMerge";
import type { ChunkView } from "./ChunkCard";
import type { ChunkActions } from "./useChunkActions";
import type { ChunkFilter, ChunkList, ChunkOrigin } from "./useChunkList";

interface ChunkToolbarProps {
  list: ChunkList;
  actions: ChunkActions;
  view: ChunkView;
  onView: (view: ChunkView) => void;
  onDelete: () => void;
}

/** Above the chunks: select all, the bulk actions, full or shortened text, the availability and origin filters, the search. */
export function ChunkToolbar({ list, actions, view, onView, onDelete }: ChunkToolbarProps) {
  const { t } = useTranslation();
  const ticked = list.selectedIds.length;
  const allSelected = list.chunks.length > 0 && ticked === list.chunks.length;
  const navigate = useNavigate();
  return (
    <Flex gap="3" align="center" wrap="wrap">
      <Checkbox.Root
        size="sm"
        colorPalette="brand"
        checked={allSelected ? true : ticked > 0 ? "indeterminate" : false}
        onCheckedChange={(details) => (details.checked === true ? list.selection.selectOnly(list.chunks.map((chunk) => chunk.id)) : list.selection.clear())}
        data-testid="chunk-select-all"
      >
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label>{ticked > 0 ? t("kb.dataset.selected", { count: ticked }) : t("kb.chunk.selectAll")}</Checkbox.Label>
      </Checkbox.Root>
      <HStack gap="1.5">
        <Button size="xs" variant="outline" loading={actions.switching} onClick={() => void actions.setSelectedAvailable(true)} data-testid="chunk-bulk-enable">
          {t("kb.dataset.enable")}
        </Button>
        <Button size="xs" variant="outline" loading={actions.switching} onClick={() => void actions.setSelectedAvailable(false)} data-testid="chunk-bulk-disable">
          {t("kb.dataset.disable")}
        </Button>
        <Button size="xs" variant="outline" colorPalette="red" onClick={() => actions.requireSelection() && onDelete()} data-testid="chunk-bulk-delete">
          <LuTrash2 /> {t("common.delete")}
        </Button>
        <Button
          size="xs"
          variant="outline"
          disabled={ticked === 1}
          title={ticked === 1 ? t("merge.selectTwo") : undefined}
          onClick={() => actions.requireSelection() && navigate(mergeAddress(list.selectedIds))}
          data-testid="chunk-bulk-merge"
        >
          <LuMerge /> {t("merge.action")}
        </Button>
      </HStack>
      <Box flex="1" />
      <SegmentGroup.Root size="xs" value={view} onValueChange={(details) => details.value && onView(details.value as ChunkView)} data-testid="chunk-view">
        <SegmentGroup.Indicator />
        <SegmentGroup.Items items={[{ value: "full", label: t("kb.chunk.fullText") }, { value: "ellipsis", label: t("kb.chunk.ellipsis") }]} />
      </SegmentGroup.Root>
      <SegmentGroup.Root size="xs" value={list.filter} onValueChange={(details) => details.value && list.setFilter(details.value as ChunkFilter)} data-testid="chunk-filter">
        <SegmentGroup.Indicator />
        <SegmentGroup.Items items={(["all", "enabled", "disabled"] as const).map((value) => ({ value, label: t(`kb.chunk.filter.${value}`) }))} />
      </SegmentGroup.Root>
      <SegmentGroup.Root
        size="xs"
        value={list.origin}
        onValueChange={(details) => details.value && list.setOrigin(details.value as ChunkOrigin)}
        aria-label={t("kb.chunk.origin.label")}
        data-testid="chunk-origin-filter"
      >
        <SegmentGroup.Indicator />
        <SegmentGroup.Items items={(["all", "original", "raptor"] as const).map((value) => ({ value, label: t(`kb.chunk.origin.${value}`) }))} />
      </SegmentGroup.Root>
      <InputGroup startElement={<LuSearch />} width={{ base: "full", md: "56" }}>
        <Input size="sm" placeholder={t("kb.chunk.search")} value={list.search} onChange={(event) => list.setSearch(event.target.value)} data-testid="chunk-search" />
      </InputGroup>
    </Flex>
  );
}
