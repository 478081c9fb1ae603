import { Badge, Center, Icon } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import type { IconType } from "react-icons";
import { LuBot, LuFile, LuFolder, LuLibrary, LuSearch, LuUsers, LuWorkflow } from "react-icons/lu";
import { formatBytes } from "../../../documents/documentTransfer";
import { useFormatters } from "../../../format";
import type { WorkCardFragment, WorkKind } from "../../../graphql/gql/graphql";

/** Each kind's picture and colour, the same on the list, the filter and the slides. */
const KIND_VISUALS: Partial<Record<WorkKind, { icon: IconType; palette: string }>> = {
  knowledgeBase: { icon: LuLibrary, palette: "brand" },
  assistant: { icon: LuBot, palette: "purple" },
  flow: { icon: LuWorkflow, palette: "orange" },
  file: { icon: LuFile, palette: "teal" },
  search: { icon: LuSearch, palette: "green" },
};

export function kindIcon(kind: WorkKind, variant?: string | null): IconType {
  if (kind === "file" && variant === "folder") return LuFolder;
  return KIND_VISUALS[kind]?.icon ?? LuFile;
}

export const kindPalette = (kind: WorkKind): string => KIND_VISUALS[kind]?.palette ?? "gray";

/** The kind's icon on a tinted square. */
export function WorkKindIcon({ work, size = "10" }: { work: Pick<WorkCardFragment, "kind" | "variant">; size?: string }) {
  const { t } = useTranslation();
  return (
    <Center boxSize={size} rounded="l2" flexShrink={0} bg={`${kindPalette(work.kind)}.subtle`} color={`${kindPalette(work.kind)}.fg`} title={t(`works.kind.${work.kind}`)} data-testid="work-kind-icon">
      <Icon as={kindIcon(work.kind, work.variant)} boxSize="55%" />
    </Center>
  );
}

export function TeamBadge() {
  const { t } = useTranslation();
  return (
    <Badge variant="subtle" colorPalette="brand" size="sm" flexShrink={0} data-testid="work-team-badge">
      <LuUsers /> {t("works.team")}
    </Badge>
  );
}

/** "12 documents · 340 chunks", "2.1 MB", "4 items": the numbers the server gave, in the interface language. */
export function useCountsText() {
  const { t } = useTranslation();
  const format = useFormatters();
  return (work: Pick<WorkCardFragment, "counts">): string =>
    work.counts
      .map(({ name, value }) => (name === "bytes" ? formatBytes(value, format.number) : t(`works.count.${name}`, { count: value, formatted: format.number(value, 0) })))
      .join(" · ");
}
