import { useState } from "react";

/**
 * The browser keys §3 names for the grid-or-list choice: `isGridLayoutVal` for the list pages (the flow list),
 * `SpaceisGridLayout` for my space's works.
 */
export type GridLayoutKey = "isGridLayoutVal" | "SpaceisGridLayout";

function storedChoice(key: GridLayoutKey): boolean {
  try {
    return window.localStorage.getItem(key) !== "false";
  } catch {
    return true; // no storage (private mode, a sandbox): the grid, every time
  }
}

/** Cards in a grid (the default) or rows in a list, remembered in the browser under `key`. */
export function useGridLayout(key: GridLayoutKey = "isGridLayoutVal"): [grid: boolean, choose: (grid: boolean) => void] {
  const [grid, setGrid] = useState(() => storedChoice(key));
  function choose(next: boolean) {
    setGrid(next);
    try {
      window.localStorage.setItem(key, String(next));
    } catch {
      // the choice lasts as long as the page
    }
  }
  return [grid, choose];
}
