import { useMutation, useQuery, useSubscription } from "@apollo/client/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { RUN } from "../../documents/runStatus";
import { DemoStatusDocument, DocumentProgressDocument, StartDemoDocument, type DemoStateFragment } from "../../graphql/gql/graphql";
import { demoSteps, withProgress, type DemoDocumentState } from "./demoSteps";

type Progress = Partial<Pick<DemoDocumentState, "run" | "progress" | "chunkCount">>;

/** While parsing, the status is read again this often too, in case a progress event was missed between start and subscription. */
const PARSING_POLL_MS = 3000;

/**
 * The signed-in user's demo: what the server says exists, the documents' live parse progress over it, starting, and
 * finishing (the server makes the assistant once the samples hold chunks, so the page asks again when parsing ends).
 */
export function useDemo() {
  const status = useQuery(DemoStatusDocument, { fetchPolicy: "network-only" });
  const [startDemo, started] = useMutation(StartDemoDocument);
  const [demo, setDemo] = useState<DemoStateFragment | null>(null);
  const [latest, setLatest] = useState<Map<string, Progress>>(new Map());
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [readySeconds, setReadySeconds] = useState<number | null>(null);
  const finishAsked = useRef(false);

  // Each answer of the server replaces the live overlay: it is at least as new as the events before it.
  const accept = (state: DemoStateFragment | undefined) => {
    if (!state) return;
    setDemo(state);
    setLatest(new Map());
  };
  useEffect(() => accept(status.data?.demoStatus), [status.data]);

  const knowledgeBaseId = demo?.knowledgeBase?.id ?? "";
  useSubscription(DocumentProgressDocument, {
    variables: { knowledgeBaseId },
    skip: !knowledgeBaseId,
    onData: ({ data }) => {
      const event = data.data?.documentProgress;
      if (!event) return;
      setLatest((current) => new Map(current).set(event.documentId, { run: event.run, progress: event.progress, chunkCount: event.chunkCount }));
      if (event.run === RUN.done || event.run === RUN.failed) void status.refetch();
    },
  });

  const documents = useMemo(() => (demo?.documents ?? []).map((d) => withProgress(d, latest.get(d.id))), [demo, latest]);
  const live = demo ? { ...demo, documents } : null;
  const steps = demoSteps(live, started.loading);

  const { startPolling, stopPolling } = status;
  useEffect(() => {
    if (steps.parsing === "running" && demo) startPolling(PARSING_POLL_MS);
    else stopPolling();
  }, [steps.parsing, demo, startPolling, stopPolling]);

  async function start() {
    if (startedAt === null) setStartedAt(performance.now());
    finishAsked.current = false;
    const result = await startDemo().catch(() => null);
    accept(result?.data?.startDemo);
  }

  // Parsing over, assistant missing: ask once more (a failure shows, and the button asks again).
  useEffect(() => {
    if (!steps.needsFinishing || started.loading || finishAsked.current) return;
    finishAsked.current = true;
    void startDemo()
      .then((result) => accept(result.data?.startDemo))
      .catch(() => undefined);
  }, [steps.needsFinishing, started.loading, startDemo]);

  useEffect(() => {
    if (steps.complete && startedAt !== null && readySeconds === null) setReadySeconds(Math.round((performance.now() - startedAt) / 1000));
  }, [steps.complete, startedAt, readySeconds]);

  return {
    demo: live,
    steps,
    loading: status.loading && !demo,
    loadError: status.error && !demo ? status.error : null,
    retryLoad: () => void status.refetch(),
    start,
    starting: started.loading,
    startError: started.error ?? null,
    readySeconds,
  };
}
