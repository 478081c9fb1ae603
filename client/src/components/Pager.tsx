import { HStack, IconButton, Text } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuChevronLeft, LuChevronRight } from "react-icons/lu";

interface PagerProps {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}

/** Previous / next with "page n of m"; hidden when everything fits on one page. */
export function Pager({ page, pageSize, total, onPage }: PagerProps) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <HStack gap="2" justify="flex-end" data-testid="pager">
      <IconButton size="sm" variant="outline" aria-label={t("kb.pager.previous")} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <LuChevronLeft />
      </IconButton>
      <Text fontSize="sm" color="fg.muted" minWidth="24" textAlign="center">
        {t("kb.pager.position", { page, pages })}
      </Text>
      <IconButton size="sm" variant="outline" aria-label={t("kb.pager.next")} disabled={page >= pages} onClick={() => onPage(page + 1)}>
        <LuChevronRight />
      </IconButton>
    </HStack>
  );
}
