import { Badge, Box, Button, HStack, Popover, Portal, Progress, Stack, Text } from "@chakra-ui/react";
import { useMutation } from "@apollo/client/react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { LuNetwork, LuSquare, LuTrees } from "react-icons/lu";
import { notify } from "../../../components/toaster";
import { describeError } from "../../../errors";
import { useFormatters } from "../../../format";
import {
  CancelKnowledgeBaseTaskDocument,
  StartKnowledgeBaseTaskDocument,
  type KnowledgeBaseTaskKind,
  type KnowledgeBaseTaskStatus,
  type KnowledgeBaseTaskFieldsFragment,
} from "../../../graphql/gql/graphql";
import { logLines, logText, type LogLine } from "../dataset/parseLog";
import { useKnowledgeBaseTasks } from "./useKnowledgeBaseTasks";

const STATUS_COLORS: Record<KnowledgeBaseTaskStatus, string> = {
  QUEUED: "gray",
  RUNNING: "blue",
  DONE: "green",
  FAILED: "red",
  CANCELLED: "orange",
};

const ACTIVE: KnowledgeBaseTaskStatus[] = ["QUEUED", "RUNNING"];
const KINDS: KnowledgeBaseTaskKind[] = ["RAPTOR", "GRAPHRAG"];

/** What a finished task made, in words. */
function resultOf(task: KnowledgeBaseTaskFieldsFragment, t: TFunction, format: ReturnType<typeof useFormatters>): string | null {
  if (task.status !== "DONE") return null;
  if (task.kind === "RAPTOR") return t("kb.tasks.result.raptor", { count: task.chunkCount ?? 0, formatted: format.number(task.chunkCount ?? 0) });
  return t("kb.tasks.result.graphrag", { entities: format.number(task.entityCount ?? 0), relations: format.number(task.relationCount ?? 0) });
}

/** The task's whole log, in the reader's language. */
function TaskLog({ lines }: { lines: LogLine[] }) {
  const { t } = useTranslation();
  return (
    <Popover.Root positioning={{ placement: "bottom-start" }} lazyMount>
      <Popover.Trigger asChild>
        <Button variant="plain" size="xs" px="0" height="auto" color="fg.muted" textDecoration="underline" data-testid="kb-task-log-open">
          {t("kb.tasks.log")}
        </Button>
      </Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          <Popover.Content width={{ base: "xs", md: "md" }}>
            <Popover.Arrow />
            <Popover.Body>
              <Box as="pre" fontSize="xs" fontFamily="mono" whiteSpace="pre-wrap" maxHeight="64" overflowY="auto" color="fg.muted" data-testid="kb-task-log">
                {logText(lines)}
              </Box>
            </Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}

interface TaskRowProps {
  knowledgeBaseId: string;
  kind: KnowledgeBaseTaskKind;
  task: KnowledgeBaseTaskFieldsFragment | undefined;
  onChanged: (task: KnowledgeBaseTaskFieldsFragment) => void;
}

function TaskRow({ knowledgeBaseId, kind, task, onChanged }: TaskRowProps) {
  const { t, i18n } = useTranslation();
  const format = useFormatters();
  const [start, { loading: starting }] = useMutation(StartKnowledgeBaseTaskDocument);
  const [cancel, { loading: cancelling }] = useMutation(CancelKnowledgeBaseTaskDocument);
  const key = kind.toLowerCase();
  const active = !!task && ACTIVE.includes(task.status);
  const percent = task ? Math.round(Math.max(0, Math.min(1, task.progress)) * 100) : 0;
  const result = task ? resultOf(task, t, format) : null;
  const endedAt = task?.finishedAt ?? null;
  const lines = task ? logLines(t, task) : [];
  const lastLine = lines.at(-1)?.text ?? "";

  async function run() {
    try {
      const answer = await start({ variables: { knowledgeBaseId, kind } });
      if (answer.data) onChanged(answer.data.startKnowledgeBaseTask);
    } catch (failure) {
      notify.error(describeError(failure, i18n));
    }
  }

  async function stop() {
    if (!task) return;
    try {
      const answer = await cancel({ variables: { id: task.id } });
      if (answer.data) onChanged(answer.data.cancelKnowledgeBaseTask);
    } catch (failure) {
      notify.error(describeError(failure, i18n));
    }
  }

  return (
    <Stack gap="2" data-testid={`kb-task-${key}`} data-status={task?.status ?? "none"}>
      <Stack gap="0.5">
        <Text fontWeight="medium">{t(`kb.tasks.${key}.title`)}</Text>
        <Text fontSize="xs" color="fg.muted">
          {t(`kb.tasks.${key}.description`)}
        </Text>
      </Stack>
      {task ? (
        <Stack gap="1.5">
          <HStack gap="2" wrap="wrap">
            <Badge colorPalette={STATUS_COLORS[task.status]} variant="subtle" size="sm" data-testid={`kb-task-${key}-status`}>
              {t(`kb.tasks.status.${task.status.toLowerCase()}`)}
            </Badge>
            {active && (
              <Text fontSize="xs" color="fg.muted" fontFamily="mono" data-testid={`kb-task-${key}-percent`}>
                {format.number(percent)}%
              </Text>
            )}
            {!active && endedAt && (
              <Text fontSize="xs" color="fg.muted">
                {t("kb.tasks.lastRun", { date: format.dateTime(endedAt) })}
              </Text>
            )}
            {result && (
              <Text fontSize="xs" color="fg.muted" data-testid={`kb-task-${key}-result`}>
                · {result}
              </Text>
            )}
          </HStack>
          {active && (
            <Progress.Root value={percent} size="xs" colorPalette="brand" striped animated width="full" data-testid={`kb-task-${key}-progress`}>
              <Progress.Track rounded="full">
                <Progress.Range />
              </Progress.Track>
            </Progress.Root>
          )}
          <HStack gap="2" minWidth="0">
            <Text fontSize="xs" color={task.status === "FAILED" ? "fg.error" : "fg.muted"} lineClamp={1} flex="1" minWidth="0" title={lastLine} data-testid={`kb-task-${key}-message`}>
              {lastLine}
            </Text>
            <TaskLog lines={lines} />
          </HStack>
        </Stack>
      ) : (
        <Text fontSize="xs" color="fg.subtle">
          {t("kb.tasks.never")}
        </Text>
      )}
      {active ? (
        <Button size="xs" variant="outline" colorPalette="red" alignSelf="flex-start" onClick={() => void stop()} loading={cancelling} data-testid={`kb-task-${key}-cancel`}>
          <LuSquare /> {t("kb.tasks.cancel")}
        </Button>
      ) : (
        <Button size="xs" colorPalette="brand" alignSelf="flex-start" onClick={() => void run()} loading={starting} data-testid={`kb-task-${key}-start`}>
          {kind === "RAPTOR" ? <LuTrees /> : <LuNetwork />} {t(`kb.tasks.${key}.start`)}
        </Button>
      )}
    </Stack>
  );
}

/**
 * RAGFlow's "Generate RAPTOR" and "Generate knowledge graph": knowledge-base tasks over all documents,
 * started here, followed live (percentage and the log's last line), cancellable.
 */
export function KnowledgeBaseTasks({ knowledgeBaseId }: { knowledgeBaseId: string }) {
  const { t } = useTranslation();
  const { tasks, remember } = useKnowledgeBaseTasks(knowledgeBaseId);
  return (
    <Stack gap="4" bg="bg.panel" borderWidth="1px" rounded="l3" p="5" data-testid="kb-tasks">
      <Stack gap="0.5">
        <Text fontWeight="semibold">{t("kb.tasks.title")}</Text>
        <Text fontSize="sm" color="fg.muted">
          {t("kb.tasks.description")}
        </Text>
      </Stack>
      {KINDS.map((kind) => (
        <TaskRow key={kind} knowledgeBaseId={knowledgeBaseId} kind={kind} task={tasks.get(kind)} onChanged={remember} />
      ))}
    </Stack>
  );
}
