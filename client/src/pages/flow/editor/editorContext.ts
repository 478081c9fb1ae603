import { createContext, useContext } from "react";
import type { FlowProblem, NodeRunState } from "../flowTypes";
import type { Registry } from "./flowGraph";

/** What the canvas's nodes and edges read beside their own data: the registry, problems, the run shown, and edits. */
export interface EditorContextValue {
  registry: Registry;
  problemsOf: (componentId: string) => FlowProblem[];
  runStateOf: (componentId: string) => NodeRunState | undefined;
  /** Sets a node's params (one undo step per field while typing). */
  setParams: (componentId: string, params: Record<string, unknown>, coalesceKey?: string) => void;
  deleteEdge: (edgeId: string) => void;
}

export const EditorContext = createContext<EditorContextValue | null>(null);

export function useEditorContext(): EditorContextValue {
  const value = useContext(EditorContext);
  if (!value) throw new Error("EditorContext is missing");
  return value;
}
