import { Box, Button, Center, CloseButton, Collapsible, Drawer, HStack, Portal, Spinner, Stack, Text } from "@chakra-ui/react";
import { useQuery } from "@apollo/client/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LuChevronDown, LuChevronLeft, LuChevronRight, LuRefreshCw } from "react-icons/lu";
import { LoadFailed } from "../../../components/LoadFailed";
import { useFormatters } from "../../../format";
import { FlowRunHistoryDocument, type FlowRunHistoryQuery } from "../../../graphql/gql/graphql";
import type { EditorNode } from "../flowTypes";
import { NodeRunDetails } from "./NodeRunDetails";
import { runStatusOf } from "./runEvents";
import { NodeStatusBadge, RunStatusBadge, useElapsedText } from "./runLook";

/** The flow's runs, newest first, each with its steps. */
export interface RunsDrawerProps {
  flowId: string;
  open: boolean;
  onClose: () => void;
  /** The flow's components, to name the steps as the editor does (their ids otherwise). */
  nodes?: readonly Pick<EditorNode, "id" | "name">[];
}

const PAGE_SIZE = 20;

type HistoryRun = FlowRunHistoryQuery["flowRuns"][number];

function elapsedOf(run: HistoryRun): number | null {
  if (!run.startedAt || !run.finishedAt) return null;
  return Math.max(0, new Date(run.finishedAt).getTime() - new Date(run.startedAt).getTime());
}

/** The flow's runs, newest first (state, start, time, tokens, message, error), a page at a time; a run opens to its steps. */
export function RunsDrawer({ flowId, open, onClose, nodes }: RunsDrawerProps) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const { data, loading, error, refetch } = useQuery(FlowRunHistoryDocument, { variables: { flowId, page, pageSize: PAGE_SIZE }, skip: !open, fetchPolicy: "network-only" });
  const runs = data?.flowRuns ?? [];
  const names = new Map((nodes ?? []).map((node) => [node.id, node.name]));

  return (
    <Drawer.Root open={open} onOpenChange={(event) => !event.open && onClose()} placement="end" size="md">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content data-testid="runs-drawer">
            <Drawer.Header>
              <HStack justify="space-between" width="full" pe="8">
                <Drawer.Title>{t("flow.run.runs.title")}</Drawer.Title>
                <Button size="xs" variant="ghost" onClick={() => void refetch()} disabled={loading} data-testid="runs-refresh">
                  <LuRefreshCw /> {t("flow.run.runs.refresh")}
                </Button>
              </HStack>
            </Drawer.Header>
            <Drawer.Body>
              {loading && !data ? (
                <Center py="16">
                  <Spinner color="brand.solid" />
                </Center>
              ) : error ? (
                <LoadFailed error={error} onRetry={() => void refetch()} />
              ) : runs.length === 0 ? (
                <Text textAlign="center" color="fg.subtle" fontSize="sm" py="12" data-testid="runs-empty">
                  {t(page === 1 ? "flow.run.runs.empty" : "flow.run.runs.noMore")}
                </Text>
              ) : (
                <Stack gap="2">
                  {runs.map((run) => (
                    <RunRow key={run.id} run={run} names={names} />
                  ))}
                </Stack>
              )}
            </Drawer.Body>
            <Drawer.Footer justifyContent="space-between">
              <Button size="sm" variant="outline" disabled={page === 1 || loading} onClick={() => setPage((p) => Math.max(1, p - 1))} data-testid="runs-previous">
                <LuChevronLeft /> {t("flow.run.runs.previous")}
              </Button>
              <Text fontSize="sm" color="fg.muted">
                {t("flow.run.runs.page", { page })}
              </Text>
              <Button size="sm" variant="outline" disabled={runs.length < PAGE_SIZE || loading} onClick={() => setPage((p) => p + 1)} data-testid="runs-next">
                {t("flow.run.runs.next")} <LuChevronRight />
              </Button>
            </Drawer.Footer>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}

function RunRow({ run, names }: { run: HistoryRun; names: Map<string, string> }) {
  const { t } = useTranslation();
  const { dateTime } = useFormatters();
  const elapsed = useElapsedText();
  const [open, setOpen] = useState(false);
  const took = elapsedOf(run);
  return (
    <Collapsible.Root open={open} onOpenChange={(details) => setOpen(details.open)} borderWidth="1px" rounded="l2" bg="bg.panel" data-testid="runs-item" data-run-id={run.id} data-status={run.status}>
      <Collapsible.Trigger asChild>
        <Stack as="button" gap="1" width="full" textAlign="start" px="3" py="2.5" cursor="pointer" _hover={{ bg: "bg.muted" }} rounded="l2">
          <HStack gap="2" fontSize="xs" color="fg.muted" wrap="wrap">
            <Box color="fg.subtle">{open ? <LuChevronDown /> : <LuChevronRight />}</Box>
            <RunStatusBadge status={runStatusOf(run.status)} />
            <Text>{dateTime(run.startedAt ?? run.createdAt)}</Text>
            {took !== null && <Text>{elapsed(took)}</Text>}
            <Text>{t("flow.run.tokens", { count: run.tokens })}</Text>
            {run.fromComponent && <Text>{t("flow.run.runs.from", { name: names.get(run.fromComponent) ?? run.fromComponent })}</Text>}
          </HStack>
          <Text fontSize="sm" truncate ps="5" color={run.message ? "fg" : "fg.subtle"}>
            {run.message || t("flow.run.runs.noMessage")}
          </Text>
          {run.error && (
            <Text fontSize="xs" color="fg.error" ps="5" lineClamp={2} data-testid="runs-item-error">
              {run.error}
            </Text>
          )}
        </Stack>
      </Collapsible.Trigger>
      <Collapsible.Content>
        <Stack gap="1" px="3" pb="3" borderTopWidth="1px" borderColor="border.muted" pt="2" data-testid="runs-item-steps">
          {run.steps.length === 0 ? (
            <Text fontSize="xs" color="fg.subtle">
              {t("flow.run.runs.noSteps")}
            </Text>
          ) : (
            run.steps.map((step) => <StepRow key={step.seq} step={step} name={names.get(step.componentId) ?? step.componentId} />)
          )}
        </Stack>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}

function StepRow({ step, name }: { step: HistoryRun["steps"][number]; name: string }) {
  const elapsed = useElapsedText();
  const [open, setOpen] = useState(false);
  const status = step.error ? "failed" : "done";
  return (
    <Collapsible.Root open={open} onOpenChange={(details) => setOpen(details.open)}>
      <Collapsible.Trigger asChild>
        <HStack as="button" width="full" gap="2" px="1.5" py="1" rounded="l1" fontSize="sm" cursor="pointer" _hover={{ bg: "bg.muted" }} data-testid="runs-step" data-component-id={step.componentId}>
          <Box color="fg.subtle">{open ? <LuChevronDown /> : <LuChevronRight />}</Box>
          <Text flex="1" minWidth="0" textAlign="start" truncate title={`${step.componentName} · ${step.componentId}`}>
            {name}
          </Text>
          <NodeStatusBadge status={status} />
          <Text fontSize="xs" color="fg.muted" minWidth="12" textAlign="end">
            {elapsed(step.elapsedMs)}
          </Text>
        </HStack>
      </Collapsible.Trigger>
      <Collapsible.Content>
        <Box ps="6" pe="1" py="2">
          <NodeRunDetails state={{ status, elapsedMs: step.elapsedMs, error: step.error, inputs: step.inputs, output: step.output }} />
        </Box>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
