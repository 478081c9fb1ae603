import { applyEdgeChanges, applyNodeChanges, type EdgeChange, type NodeChange } from "@xyflow/react";
import { useCallback, useReducer, useRef, useState } from "react";
import type { FlowEdge, FlowNode } from "./flowGraph";

/** The drawing being edited. */
export interface Drawing {
  nodes: FlowNode[];
  edges: FlowEdge[];
}

const HISTORY_LIMIT = 100;
/** Edits of one field that follow each other this closely are one step of undo (typing a prompt). */
const COALESCE_MS = 1200;

/** Changes that only say how the canvas shows a node or edge (selection, measured size): no save, no undo step. */
const isViewOnly = (change: NodeChange<FlowNode> | EdgeChange<FlowEdge>) => change.type === "select" || change.type === "dimensions" || (change.type === "position" && change.dragging === true);

/**
 * The editor's drawing with its undo and redo, and a revision that counts the changes worth saving (autosave
 * watches it). A drag is one undo step, taken when it starts; typing in one field is one step while it goes on.
 */
export function useFlowEditor(initial: Drawing) {
  const [drawing, setDrawing] = useState<Drawing>(initial);
  const [revision, setRevision] = useState(0);
  const current = useRef(drawing);
  current.current = drawing;
  const past = useRef<Drawing[]>([]);
  const future = useRef<Drawing[]>([]);
  const lastStep = useRef<{ key: string; at: number } | null>(null);
  // past and future are refs (read synchronously by undo); this re-renders the buttons that show whether they are empty
  const [, historyChanged] = useReducer((n: number) => n + 1, 0);

  const remember = useCallback((coalesceKey?: string) => {
    const now = Date.now();
    const same = coalesceKey !== undefined && lastStep.current?.key === coalesceKey && now - lastStep.current.at < COALESCE_MS;
    lastStep.current = coalesceKey === undefined ? null : { key: coalesceKey, at: now };
    if (same) return;
    past.current = [...past.current.slice(-(HISTORY_LIMIT - 1)), current.current];
    future.current = [];
    historyChanged();
  }, []);

  /** A change of the flow: one undo step (or part of the last one, for the same `coalesceKey`), then saved. */
  const change = useCallback(
    (next: (drawing: Drawing) => Drawing, coalesceKey?: string) => {
      remember(coalesceKey);
      setDrawing((previous) => next(previous));
      setRevision((n) => n + 1);
    },
    [remember],
  );

  const onNodesChange = useCallback(
    (changes: NodeChange<FlowNode>[]) => {
      if (changes.every(isViewOnly)) {
        setDrawing((previous) => ({ ...previous, nodes: applyNodeChanges(changes, previous.nodes) }));
        return;
      }
      if (changes.every((c) => c.type === "position" && c.dragging === false)) {
        // the end of a drag, whose step onDragStart took
        setDrawing((previous) => ({ ...previous, nodes: applyNodeChanges(changes, previous.nodes) }));
        setRevision((n) => n + 1);
        return;
      }
      change((previous) => ({ ...previous, nodes: applyNodeChanges(changes, previous.nodes) }));
    },
    [change],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange<FlowEdge>[]) => {
      if (changes.every(isViewOnly)) {
        setDrawing((previous) => ({ ...previous, edges: applyEdgeChanges(changes, previous.edges) }));
        return;
      }
      change((previous) => ({ ...previous, edges: applyEdgeChanges(changes, previous.edges) }));
    },
    [change],
  );

  /** A drag is one step: the drawing before it is remembered when it starts. */
  const onDragStart = useCallback(() => remember(), [remember]);

  const travel = useCallback((from: React.RefObject<Drawing[]>, to: React.RefObject<Drawing[]>) => {
    const target = from.current.at(-1);
    if (!target) return;
    from.current = from.current.slice(0, -1);
    to.current = [...to.current, current.current];
    lastStep.current = null;
    setDrawing(target);
    setRevision((n) => n + 1);
    historyChanged();
  }, []);

  const undo = useCallback(() => travel(past, future), [travel]);
  const redo = useCallback(() => travel(future, past), [travel]);

  /** Another drawing altogether (a version restored, the other tab's save taken): history starts again. */
  const replace = useCallback((next: Drawing) => {
    past.current = [];
    future.current = [];
    lastStep.current = null;
    historyChanged();
    setDrawing(next);
  }, []);

  return {
    drawing,
    revision,
    change,
    onNodesChange,
    onEdgesChange,
    onDragStart,
    undo,
    redo,
    canUndo: past.current.length > 0,
    canRedo: future.current.length > 0,
    replace,
  };
}

export type FlowEditorState = ReturnType<typeof useFlowEditor>;
