import { lazy, type ComponentType, type LazyExoticComponent } from "react";

/** §2/§9: a page that has not arrived after 120 seconds counts as failed. */
export const PAGE_LOAD_TIMEOUT_MS = 120_000;

export type PageLoadFailure = "timeout" | "network" | "script";

/** A page's code could not be loaded; the boundary around the page names the part and the failure. */
export class PageLoadError extends Error {
  constructor(
    readonly page: string,
    readonly failure: PageLoadFailure,
    cause?: unknown,
  ) {
    super(`Loading the ${page} page failed (${failure})`, { cause });
    this.name = "PageLoadError";
  }
}

class LoadTimeout extends Error {}

function classify(error: unknown): PageLoadFailure {
  if (error instanceof LoadTimeout) return "timeout";
  // Browsers report a chunk that could not be fetched as a TypeError ("Failed to fetch dynamically imported module").
  if (error instanceof TypeError) return "network";
  return "script";
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new LoadTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export type LazyPage = LazyExoticComponent<ComponentType> & {
  /** The key under `pages.` in the message files. */
  page: string;
  /** A layout frames other pages; the browser tab is named after the page inside it. */
  isLayout: boolean;
};

/** React.lazy with the page-load time-out, failing with a PageLoadError that says which page and why. */
export function lazyPage(page: string, load: () => Promise<{ default: ComponentType }>, { isLayout = false } = {}): LazyPage {
  const component = lazy(() =>
    withTimeout(load(), PAGE_LOAD_TIMEOUT_MS).catch((error: unknown) => {
      throw new PageLoadError(page, classify(error), error);
    }),
  );
  return Object.assign(component, { page, isLayout });
}
