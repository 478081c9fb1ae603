import { useEffect, useRef } from "react";

export interface EditorShortcuts {
  undo: () => void;
  redo: () => void;
  copy: () => void;
  paste: () => void;
  selectAll: () => void;
  save: () => void;
}

/** Whether a key press belongs to a field being typed in (its own undo, copy and paste). */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/**
 * The canvas's keyboard: Ctrl/⌘+Z undo, Ctrl/⌘+Shift+Z or Ctrl+Y redo, Ctrl/⌘+C and V copy and paste nodes,
 * Ctrl/⌘+A select all, Ctrl/⌘+S save now. Delete and Backspace remove the selection (React Flow's own).
 */
export function useEditorShortcuts(shortcuts: EditorShortcuts): void {
  const latest = useRef(shortcuts);
  latest.current = shortcuts;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      const key = event.key.toLowerCase();
      if (key === "s") {
        event.preventDefault();
        latest.current.save();
        return;
      }
      if (typing(event.target) || document.querySelector("[role=dialog]")) return;
      const action =
        key === "z" ? (event.shiftKey ? "redo" : "undo") : key === "y" ? "redo" : key === "c" ? "copy" : key === "v" ? "paste" : key === "a" ? "selectAll" : null;
      if (!action) return;
      event.preventDefault();
      latest.current[action]();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
