import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { stopProcess } from "./processes";

/** The one client the local provider knows: a server configured before the provider starts (the browser tests') names it. */
export const OIDC_TEST_CLIENT = { clientId: "cairn-test", clientSecret: "cairn-test-secret" };

export interface OidcTestAccount {
  email: string;
  email_verified: boolean;
  name?: string;
}

export interface OidcTestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop(): Promise<unknown>;
}

/**
 * A local OpenID Connect provider (oidc-provider, in a process of its own: it is an ES module) on `port` of 127.0.0.1,
 * knowing one client that may come back to `redirectUris`. Its login form signs in any login with any password; a login
 * listed in `accounts` has those claims, any other is its own e-mail address, verified.
 */
export function startOidcProvider(options: { port: number; redirectUris: string[]; accounts?: Record<string, OidcTestAccount> }): Promise<OidcTestProvider> {
  const { clientId, clientSecret } = OIDC_TEST_CLIENT;
  const child: ChildProcess = spawn(process.execPath, [path.join(__dirname, "oidc-provider.child.mjs")], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      OIDC_PORT: String(options.port),
      OIDC_CLIENT_ID: clientId,
      OIDC_CLIENT_SECRET: clientSecret,
      OIDC_REDIRECT_URIS: options.redirectUris.join(","),
      OIDC_ACCOUNTS: JSON.stringify(options.accounts ?? {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let output = "";
    const onOutput = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /oidc provider listening (\S+)/.exec(output);
      if (ready) resolve({ issuer: ready[1], clientId, clientSecret, stop: () => stopProcess(child) });
    };
    child.stdout!.on("data", onOutput);
    child.stderr!.on("data", onOutput);
    child.once("exit", (code) => reject(new Error(`the OpenID Connect provider exited (code ${code}):\n${output}`)));
  });
}
