import { useState } from "react";

/** The browser key §3 names for the grid-or-list choice of a list page. */
const GRID_LAYOUT_KEY = "isGridLayoutVal";

function storedChoice(): boolean {
  try {
    return window.localStorage.getItem(GRID_LAYOUT_KEY) !== "false";
  } catch {
    return true; // no storage (private mode, a sandbox): the grid, every time
  }
}

/** Cards in a grid (the default) or rows in a list, remembered in the browser. */
export function useGridLayout(): [grid: boolean, choose: (grid: boolean) => void] {
  const [grid, setGrid] = useState(storedChoice);
  function choose(next: boolean) {
    setGrid(next);
    try {
      window.localStorage.setItem(GRID_LAYOUT_KEY, String(next));
    } catch {
      // the choice lasts as long as the page
    }
  }
  return [grid, choose];
}
