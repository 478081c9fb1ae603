import { useQuery, useSubscription } from "@apollo/client/react";
import { useMemo, useState } from "react";
import {
  KnowledgeBaseTaskProgressDocument,
  KnowledgeBaseTasksDocument,
  type KnowledgeBaseTaskFieldsFragment,
  type KnowledgeBaseTaskKind,
} from "../../../graphql/gql/graphql";

/**
 * The latest RAPTOR and GraphRAG task of a knowledge base, kept live by the `knowledgeBaseTaskProgress`
 * subscription (its first events are the tasks as they are now). A newer task of a kind replaces the
 * older one; for the same task the latest event wins over a fetched or mutation answer.
 */
export function useKnowledgeBaseTasks(knowledgeBaseId: string) {
  const { data } = useQuery(KnowledgeBaseTasksDocument, { variables: { knowledgeBaseId }, skip: !knowledgeBaseId });
  const [live, setLive] = useState<ReadonlyMap<KnowledgeBaseTaskKind, KnowledgeBaseTaskFieldsFragment>>(new Map());

  const remember = (task: KnowledgeBaseTaskFieldsFragment) =>
    setLive((current) => {
      const known = current.get(task.kind);
      // An older task's late event must not hide the newer one (ids are time-ordered, as creation times are).
      if (known && known.id !== task.id && new Date(known.createdAt) > new Date(task.createdAt)) return current;
      return new Map(current).set(task.kind, task);
    });

  useSubscription(KnowledgeBaseTaskProgressDocument, {
    variables: { knowledgeBaseId },
    skip: !knowledgeBaseId,
    onData: ({ data: event }) => {
      const task = event.data?.knowledgeBaseTaskProgress;
      if (task) remember(task);
    },
  });

  const tasks = useMemo(() => {
    const byKind = new Map<KnowledgeBaseTaskKind, KnowledgeBaseTaskFieldsFragment>();
    for (const task of data?.knowledgeBaseTasks ?? []) byKind.set(task.kind, task);
    for (const [kind, task] of live) {
      const fetched = byKind.get(kind);
      if (!fetched || fetched.id === task.id || new Date(task.createdAt) >= new Date(fetched.createdAt)) byKind.set(kind, task);
    }
    return byKind;
  }, [data, live]);

  return { tasks, remember };
}
