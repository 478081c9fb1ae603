/** The share page's visitor: a random id kept in this browser, so a visitor finds their own conversations again. */
const VISITOR_KEY = "cairnVisitorId";
const SHARED_ID_PARAM = "shared_id";

let fallback: string | null = null;

// getRandomValues, not randomUUID: the latter exists only on https pages, and a share page may be served over http.
function randomId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export function visitorId(): string {
  try {
    const stored = window.localStorage.getItem(VISITOR_KEY);
    if (stored) return stored;
    const created = randomId();
    window.localStorage.setItem(VISITOR_KEY, created);
    return created;
  } catch {
    // Without storage (a sandboxed iframe, private mode) the visitor lasts as long as the page.
    fallback ??= randomId();
    return fallback;
  }
}

/** The page is the shared chat of §6: it authenticates with the shared id of its address. */
export function isSharedPage(): boolean {
  return new URLSearchParams(window.location.search).has(SHARED_ID_PARAM);
}

/** `X-Visitor-Id` on the share page's requests; nothing elsewhere. */
export function visitorHeaders(): Record<string, string> {
  return isSharedPage() ? { "x-visitor-id": visitorId() } : {};
}
