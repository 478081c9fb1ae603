/** The query parameter of /login that carries the page an anonymous visitor asked for. */
export const RETURN_TO_PARAM = "redirect";
export const HOME_PATH = "/my";

/** The query parameter of /login that opens it on the sign-up form (`mode=signUp`), for the public pages' "Sign up". */
export const MODE_PARAM = "mode";

export function loginPathFor(returnTo: string, mode?: "signUp"): string {
  return `/login?${new URLSearchParams({ [RETURN_TO_PARAM]: returnTo, ...(mode ? { [MODE_PARAM]: mode } : {}) }).toString()}`;
}

/** Only a path inside this application is followed after sign-in, never another site ("//evil.example"). */
export function safeReturnTo(raw: string | null): string {
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\")) return HOME_PATH;
  if (raw === "/login" || raw.startsWith("/login?") || raw.startsWith("/login-next")) return HOME_PATH;
  return raw;
}
