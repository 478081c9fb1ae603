import { Group, IconButton } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { LuLayoutGrid, LuList } from "react-icons/lu";

interface LayoutToggleProps {
  grid: boolean;
  onGrid: (grid: boolean) => void;
  /** Prefix of the two buttons' test ids: `<prefix>-grid` and `<prefix>-list`. */
  testId: string;
}

/** The cards-or-rows switch of a list page (the choice itself is remembered by `useGridLayout`). */
export function LayoutToggle({ grid, onGrid, testId }: LayoutToggleProps) {
  const { t } = useTranslation();
  return (
    <Group attached>
      <IconButton size="sm" variant={grid ? "subtle" : "outline"} aria-label={t("common.gridLayout")} aria-pressed={grid} onClick={() => onGrid(true)} data-testid={`${testId}-grid`}>
        <LuLayoutGrid />
      </IconButton>
      <IconButton size="sm" variant={grid ? "outline" : "subtle"} aria-label={t("common.listLayout")} aria-pressed={!grid} onClick={() => onGrid(false)} data-testid={`${testId}-list`}>
        <LuList />
      </IconButton>
    </Group>
  );
}
