import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** The account the local GitHub signs in, as GitHub's /user and /user/emails describe it. */
export interface GitHubTestAccount {
  id: number;
  login: string;
  name: string | null;
  emails: { email: string; primary: boolean; verified: boolean }[];
}

export interface GitHubTestServer {
  /** What AUTH_GITHUB_URL and AUTH_GITHUB_API_URL point at. */
  url: string;
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  /** Who signs in at the next authorisation; `deny` answers as GitHub does when the user cancels. */
  next: { account: GitHubTestAccount; deny?: boolean };
  /** The code verifiers the token endpoint received, in order. */
  verifiers: string[];
  close(): Promise<void>;
}

/**
 * A local server speaking GitHub's OAuth web flow (authorize, access_token with PKCE) and the two REST endpoints a
 * sign-in reads. It approves at once, as GitHub does for an app the user already authorised.
 */
export async function startGitHubServer(): Promise<GitHubTestServer> {
  const codes = new Map<string, { challenge: string; redirectUri: string; account: GitHubTestAccount }>();
  const tokens = new Map<string, GitHubTestAccount>();
  const state: GitHubTestServer = {
    url: "",
    apiUrl: "",
    clientId: "github-client",
    clientSecret: "github-secret",
    next: { account: { id: 1, login: "octocat", name: "The Octocat", emails: [] } },
    verifiers: [],
    close: async () => undefined,
  };

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", state.url);
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    req.on("end", () => {
      if (req.method === "GET" && url.pathname === "/login/oauth/authorize") {
        const params = url.searchParams;
        const back = new URL(params.get("redirect_uri") ?? "");
        back.searchParams.set("state", params.get("state") ?? "");
        if (params.get("client_id") !== state.clientId || params.get("code_challenge_method") !== "S256") {
          back.searchParams.set("error", "invalid_request");
        } else if (state.next.deny) {
          back.searchParams.set("error", "access_denied");
        } else {
          const code = randomBytes(10).toString("hex");
          codes.set(code, { challenge: params.get("code_challenge") ?? "", redirectUri: back.origin + back.pathname, account: state.next.account });
          back.searchParams.set("code", code);
        }
        res.writeHead(302, { location: back.href });
        return res.end();
      }
      if (req.method === "POST" && url.pathname === "/login/oauth/access_token") {
        const form = new URLSearchParams(raw);
        const grant = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        state.verifiers.push(verifier);
        const verified = grant && createHash("sha256").update(verifier).digest("base64url") === grant.challenge;
        if (form.get("client_id") !== state.clientId || form.get("client_secret") !== state.clientSecret || !grant || !verified || form.get("redirect_uri") !== grant.redirectUri) {
          // GitHub's way: HTTP 200 with an error field.
          return json(res, 200, { error: "bad_verification_code", error_description: "The code passed is incorrect or expired." });
        }
        const token = `gho_${randomBytes(12).toString("hex")}`;
        tokens.set(token, grant.account);
        return json(res, 200, { access_token: token, token_type: "bearer", scope: "read:user,user:email" });
      }
      const account = tokens.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
      if (req.method === "GET" && url.pathname.startsWith("/api/") && !account) return json(res, 401, { message: "Requires authentication" });
      if (req.method === "GET" && url.pathname === "/api/user") return json(res, 200, { id: account!.id, login: account!.login, name: account!.name, email: null });
      if (req.method === "GET" && url.pathname === "/api/user/emails") return json(res, 200, account!.emails.map((entry) => ({ ...entry, visibility: null })));
      json(res, 404, { message: "Not Found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.apiUrl = `${state.url}/api`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
