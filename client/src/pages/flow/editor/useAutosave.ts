import { useMutation } from "@apollo/client/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { errorCodeOf } from "../../../errors";
import { SaveFlowDocument, type SaveFlowMutation, type UpdateFlowInput } from "../../../graphql/gql/graphql";

/** How long the editor waits after the last change before it saves (§4: autosave). */
const PAUSE_MS = 1000;

export type SaveState = "saved" | "pending" | "saving" | "conflict" | "failed";

export type SavedFlow = SaveFlowMutation["updateFlow"];

interface AutosaveOptions {
  flowId: string;
  /** Counts the changes worth saving; each one (re)starts the pause. */
  revision: number;
  /** The fields to save now (the DSL, the title). */
  input: () => Omit<UpdateFlowInput, "baseUpdatedAt" | "autosave">;
  /** The updatedAt the editor loaded: a save over a newer one (another tab's) is refused, never silently overwritten. */
  loadedAt: string;
  onSaved?: (flow: SavedFlow) => void;
}

/**
 * Saves the flow after a short pause, when asked (`flush`, before a run) and when the editor is left. Each save
 * names the version it was made on; when another tab saved in between, the state becomes "conflict" and nothing
 * more is saved until the user chooses (`overwrite` theirs, or reload and lose this tab's edits).
 */
export function useAutosave({ flowId, revision, input, loadedAt, onSaved }: AutosaveOptions) {
  const [saveFlow] = useMutation(SaveFlowDocument);
  const [state, setState] = useState<SaveState>("saved");
  const [savedAt, setSavedAt] = useState<string>(loadedAt);
  const [error, setError] = useState<unknown>(null);
  const base = useRef(loadedAt);
  const savedRevision = useRef(revision);
  const wanted = useRef(revision);
  wanted.current = revision;
  const inFlight = useRef<Promise<boolean> | null>(null);
  const blocked = useRef(false);
  const latest = useRef({ input, onSaved });
  latest.current = { input, onSaved };

  const save = useCallback(
    async (options: { keepalive?: boolean; over?: string } = {}): Promise<boolean> => {
      if (inFlight.current) await inFlight.current;
      if (blocked.current && options.over === undefined) return false;
      if (wanted.current === savedRevision.current && options.over === undefined) return true;
      const revisionSaved = wanted.current;
      setState("saving");
      const attempt = (async () => {
        try {
          const { data } = await saveFlow({
            variables: { id: flowId, input: { ...latest.current.input(), baseUpdatedAt: options.over ?? base.current, autosave: true } },
            context: options.keepalive ? { fetchOptions: { keepalive: true } } : undefined,
          });
          if (!data) throw new Error("no answer");
          base.current = data.updateFlow.updatedAt;
          savedRevision.current = revisionSaved;
          blocked.current = false;
          setSavedAt(data.updateFlow.updatedAt);
          setError(null);
          setState(wanted.current === revisionSaved ? "saved" : "pending");
          latest.current.onSaved?.(data.updateFlow);
          return true;
        } catch (failure) {
          const conflict = errorCodeOf(failure) === "CONFLICT" && options.over === undefined;
          blocked.current = conflict;
          setError(failure);
          setState(conflict ? "conflict" : "failed");
          return false;
        }
      })();
      inFlight.current = attempt;
      try {
        return await attempt;
      } finally {
        inFlight.current = null;
      }
    },
    [flowId, saveFlow],
  );

  // The timer restarts on a change only, never on a mere re-render (a streaming run re-renders the editor often).
  const latestSave = useRef(save);
  latestSave.current = save;
  useEffect(() => {
    if (revision === savedRevision.current || blocked.current) return;
    setState("pending");
    const timer = setTimeout(() => void latestSave.current(), PAUSE_MS);
    return () => clearTimeout(timer);
  }, [revision]);

  // Leaving: the page (a request that outlives it) or the route (the mutation goes on after the editor unmounts).
  useEffect(() => {
    const onLeave = (event: BeforeUnloadEvent) => {
      if (wanted.current === savedRevision.current || blocked.current) return;
      void latestSave.current({ keepalive: true });
      event.preventDefault();
    };
    window.addEventListener("beforeunload", onLeave);
    return () => {
      window.removeEventListener("beforeunload", onLeave);
      if (wanted.current !== savedRevision.current && !blocked.current) void latestSave.current();
    };
  }, []);

  return {
    state,
    savedAt,
    error,
    /** Saves what is pending now; false when it could not be saved. */
    flush: useCallback(() => save(), [save]),
    /** Saves this tab's flow over the other tab's save (whose updatedAt is given). */
    overwrite: useCallback((theirs: string) => save({ over: theirs }), [save]),
    /** After the editor took the stored flow: nothing pending, saves go on from its updatedAt. */
    reset: useCallback((updatedAt: string) => {
      base.current = updatedAt;
      savedRevision.current = wanted.current;
      blocked.current = false;
      setSavedAt(updatedAt);
      setError(null);
      setState("saved");
    }, []),
  };
}
