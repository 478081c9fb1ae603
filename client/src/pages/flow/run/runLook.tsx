import { Badge, Spinner } from "@chakra-ui/react";
import { useTranslation } from "react-i18next";
import { useFormatters } from "../../../format";
import type { NodeRunStatus } from "../flowTypes";
import type { FlowRunStatus } from "./runEvents";

const NODE_PALETTES: Record<NodeRunStatus, string> = { waiting: "gray", running: "blue", done: "green", failed: "red", skipped: "gray" };
const RUN_PALETTES: Record<FlowRunStatus, string> = { idle: "gray", queued: "gray", running: "blue", waiting: "purple", finished: "green", failed: "red", cancelled: "orange" };

/** A component's state in a run, as a small coloured label. */
export function NodeStatusBadge({ status }: { status: NodeRunStatus }) {
  const { t } = useTranslation();
  return (
    <Badge size="sm" variant={status === "skipped" ? "outline" : "subtle"} colorPalette={NODE_PALETTES[status]} data-status={status}>
      {status === "running" && <Spinner size="xs" />}
      {t(`flow.run.nodeStatus.${status}`)}
    </Badge>
  );
}

/** A run's state (queued, running, waiting for the user…), as a small coloured label. */
export function RunStatusBadge({ status }: { status: FlowRunStatus }) {
  const { t } = useTranslation();
  return (
    <Badge size="sm" variant="subtle" colorPalette={RUN_PALETTES[status]} data-status={status}>
      {(status === "running" || status === "queued") && <Spinner size="xs" />}
      {t(`flow.run.runStatus.${status}`)}
    </Badge>
  );
}

/** How long something took: milliseconds under a second, seconds with one decimal above. */
export function useElapsedText(): (ms: number | null | undefined) => string {
  const { t } = useTranslation();
  const { number } = useFormatters();
  return (ms) => {
    if (ms === null || ms === undefined) return "";
    return ms < 1000 ? t("flow.run.elapsedMs", { value: number(Math.round(ms)) }) : t("flow.run.elapsedSeconds", { value: number(Math.round(ms / 100) / 10, 1) });
  };
}
