import { useApolloClient, useQuery, useSubscription } from "@apollo/client/react";
import { useCallback, useMemo, useRef, useState } from "react";
import {
  KnowledgeBaseDocument,
  KnowledgeBaseTaskProgressDocument,
  KnowledgeBaseTasksDocument,
  type KnowledgeBaseTaskFieldsFragment,
  type KnowledgeBaseTaskKind,
  type KnowledgeBaseTaskStatus,
} from "../../../graphql/gql/graphql";

type Task = KnowledgeBaseTaskFieldsFragment;

const STAGE: Record<KnowledgeBaseTaskStatus, number> = { QUEUED: 0, RUNNING: 1, DONE: 2, FAILED: 2, CANCELLED: 2 };

/**
 * Whether `next` says more than `known`: a later task of the kind, or a later state of the same task. A
 * query or mutation answer can arrive after newer events (a short run ends while the start's answer is on
 * its way) and must not put the row back to an older state.
 */
function isNewer(next: Task, known: Task | undefined): boolean {
  if (!known) return true;
  if (next.id !== known.id) return new Date(next.createdAt) >= new Date(known.createdAt);
  if (STAGE[next.status] !== STAGE[known.status]) return STAGE[next.status] > STAGE[known.status];
  return next.progress > known.progress || (next.progress === known.progress && next.progressMsg.length >= known.progressMsg.length);
}

/**
 * The latest RAPTOR and GraphRAG task of a knowledge base, kept live by the `knowledgeBaseTaskProgress`
 * subscription (its first events are the tasks as they are now); there is no polling.
 */
export function useKnowledgeBaseTasks(knowledgeBaseId: string) {
  const { data } = useQuery(KnowledgeBaseTasksDocument, { variables: { knowledgeBaseId }, skip: !knowledgeBaseId });
  const client = useApolloClient();
  const [live, setLive] = useState<ReadonlyMap<KnowledgeBaseTaskKind, Task>>(new Map());
  /** Tasks seen unfinished on this page: when one is done, the knowledge base's counts changed. */
  const unfinished = useRef(new Set<string>());

  const remember = useCallback(
    (task: Task) => {
      // Into the cached list as well: a page that mounts again (the knowledge base refetched below, say) starts from
      // it, and would show a finished task as never run until the subscription's first events came.
      client.cache.updateQuery({ query: KnowledgeBaseTasksDocument, variables: { knowledgeBaseId } }, (cached) => {
        if (!cached) return cached;
        const known = cached.knowledgeBaseTasks.find((t) => t.kind === task.kind);
        if (known && !isNewer(task, known)) return cached;
        return { ...cached, knowledgeBaseTasks: [...cached.knowledgeBaseTasks.filter((t) => t.kind !== task.kind), task] };
      });
      if (task.status === "QUEUED" || task.status === "RUNNING") unfinished.current.add(task.id);
      else if (unfinished.current.delete(task.id) && task.status === "DONE") void client.refetchQueries({ include: [KnowledgeBaseDocument] });
      setLive((current) => (isNewer(task, current.get(task.kind)) ? new Map(current).set(task.kind, task) : current));
    },
    [client, knowledgeBaseId],
  );

  useSubscription(KnowledgeBaseTaskProgressDocument, {
    variables: { knowledgeBaseId },
    skip: !knowledgeBaseId,
    onData: ({ data: event }) => {
      const task = event.data?.knowledgeBaseTaskProgress;
      if (task) remember(task);
    },
  });

  const tasks = useMemo(() => {
    const byKind = new Map<KnowledgeBaseTaskKind, Task>();
    for (const task of data?.knowledgeBaseTasks ?? []) byKind.set(task.kind, task);
    for (const [kind, task] of live) if (isNewer(task, byKind.get(kind))) byKind.set(kind, task);
    return byKind;
  }, [data, live]);

  return { tasks, remember };
}
