import { useSyncExternalStore } from "react";
import type { SignedInUserFragment } from "../graphql/gql/graphql";

/** Browser storage keys named by the specification (§3). */
const TOKEN_KEY = "Authorization";
const USER_KEY = "userInfo";
/** §6: a page address carrying this parameter authenticates with it instead of the stored token. */
const SHARED_ID_PARAM = "shared_id";

type Listener = () => void;
const listeners = new Set<Listener>();

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode, quota); the session then lasts as long as the page.
  }
}

let token: string | null = readStorage(TOKEN_KEY);
/** The page the user was on when they chose to sign out: that page is not one to come back to. */
let signedOutByUserAt: string | null = null;

function emit(): void {
  for (const listener of listeners) listener();
}

// Another tab signing in or out changes this tab's session too.
window.addEventListener("storage", (event) => {
  if (event.key !== TOKEN_KEY && event.key !== null) return;
  const stored = readStorage(TOKEN_KEY);
  if (stored !== token) {
    token = stored;
    emit();
  }
});

export const authStore = {
  getToken: (): string | null => token,

  /** The bearer credential for requests: the page's shared id when present, else the signed-in token. */
  getCredential(): string | null {
    const sharedId = new URLSearchParams(window.location.search).get(SHARED_ID_PARAM);
    return sharedId || token;
  },

  signIn(newToken: string, user: SignedInUserFragment): void {
    token = newToken;
    signedOutByUserAt = null;
    writeStorage(TOKEN_KEY, newToken);
    writeStorage(USER_KEY, JSON.stringify(user));
    emit();
  },

  rememberUser(user: SignedInUserFragment): void {
    writeStorage(USER_KEY, JSON.stringify(user));
  },

  storedUser(): SignedInUserFragment | null {
    const raw = readStorage(USER_KEY);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as SignedInUserFragment;
    } catch {
      return null;
    }
  },

  /** Ends the session in this browser; `byUserAt` is the page where the user asked for it, if they did. */
  signOut(byUserAt?: string): void {
    if (byUserAt !== undefined) signedOutByUserAt = byUserAt;
    if (token === null && readStorage(USER_KEY) === null) return;
    token = null;
    writeStorage(TOKEN_KEY, null);
    writeStorage(USER_KEY, null);
    emit();
  },

  signedOutByUserAt: (): string | null => signedOutByUserAt,

  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useAuthToken(): string | null {
  return useSyncExternalStore(authStore.subscribe, authStore.getToken);
}
