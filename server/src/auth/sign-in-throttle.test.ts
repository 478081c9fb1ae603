import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { tokenHash } from "../platform/secrets";
import { REGISTER, startTestServer, type GraphQLResponse, type TestServer } from "../testing/app";

const LOGIN = `mutation Login($input: LoginInput!) { login(input: $input) { token } }`;
const PASSWORD = "correct horse battery";
const SPRAYED = "Summer2026!";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    SIGNIN_FREE_ATTEMPTS: "3",
    SIGNIN_ADDRESS_FREE_ATTEMPTS: "4",
    SIGNIN_NETWORK_FREE_ATTEMPTS: "6",
    SIGNIN_LOCK_SECONDS: "60",
  });
});
afterAll(() => server.close());

/** A sign-in as a client at `address` would send it through a reverse proxy on this machine (trust proxy: loopback). */
async function signIn(address: string, email: string, password: string, to: TestServer = server): Promise<GraphQLResponse<{ login: { token: string } }>> {
  const response = await fetch(`${to.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address },
    body: JSON.stringify({ query: LOGIN, variables: { input: { email, password } } }),
  });
  return (await response.json()) as GraphQLResponse<{ login: { token: string } }>;
}

function outcome(response: GraphQLResponse<unknown>): string {
  return response.errors ? String(response.errors[0].extensions.code) : "SIGNED_IN";
}

let accounts = 0;
async function newAccount(): Promise<string> {
  const email = `throttled${++accounts}-${Date.now()}@example.com`;
  const registered = await server.graphql(REGISTER, { input: { email, nickname: "someone", password: PASSWORD } });
  if (!registered.data) throw new Error(JSON.stringify(registered.errors));
  return email;
}

describe("sign-in throttling", () => {
  it("slows one address spraying a password over many accounts, and no other address", async () => {
    const victims = await Promise.all([1, 2, 3, 4, 5].map(() => newAccount()));
    const sprayed = [];
    for (const email of victims.slice(0, 4)) sprayed.push(outcome(await signIn("198.51.100.7", email, SPRAYED)));
    expect(sprayed).toEqual(["UNAUTHENTICATED", "UNAUTHENTICATED", "UNAUTHENTICATED", "UNAUTHENTICATED"]);
    const next = await signIn("198.51.100.7", victims[4], SPRAYED);
    expect(next.errors?.[0].extensions).toMatchObject({ code: "TOO_MANY_REQUESTS", messageKey: "errors.signInThrottled" });
    expect(next.errors?.[0].extensions.params.seconds).toBeGreaterThan(50);
    // Even the right password waits while the address is locked; another network is not concerned.
    expect(outcome(await signIn("198.51.100.7", victims[4], PASSWORD))).toBe("TOO_MANY_REQUESTS");
    expect(outcome(await signIn("192.0.2.44", victims[4], PASSWORD))).toBe("SIGNED_IN");
  });

  it("slows a network whose addresses share the spraying, IPv4 /24 and IPv6 /64 alike, and no other network", async () => {
    for (const [network, other, elsewhere] of [
      [(i: number) => `203.0.113.${i + 10}`, "203.0.113.200", "203.0.114.9"],
      [(i: number) => `2001:db8:7:7::${(i + 10).toString(16)}`, "2001:db8:7:7:abcd::1", "2001:db8:7:8::1"],
    ] as const) {
      const victims = await Promise.all([1, 2, 3, 4, 5, 6, 7].map(() => newAccount()));
      // Six addresses of one network, one failure each: no address reaches its own limit of four.
      for (let i = 0; i < 6; i++) expect(outcome(await signIn(network(i), victims[i], SPRAYED))).toBe("UNAUTHENTICATED");
      expect(outcome(await signIn(other, victims[6], PASSWORD))).toBe("TOO_MANY_REQUESTS");
      expect(outcome(await signIn(elsewhere, victims[6], PASSWORD))).toBe("SIGNED_IN");
    }
  });

  it("lets the owner sign in from another address while a stranger guessing the account's password is locked out", async () => {
    const email = await newAccount();
    const guesses = [];
    for (const guess of ["123456789", "password1", "qwertyuiop", "letmein123"]) guesses.push(outcome(await signIn("100.64.0.5", email, guess)));
    expect(guesses).toEqual(["UNAUTHENTICATED", "UNAUTHENTICATED", "UNAUTHENTICATED", "TOO_MANY_REQUESTS"]);
    expect(outcome(await signIn("100.64.0.5", email, PASSWORD))).toBe("TOO_MANY_REQUESTS");
    expect(outcome(await signIn("172.16.20.30", email, PASSWORD))).toBe("SIGNED_IN");
    // The stranger keeps waiting, the owner keeps signing in.
    expect(outcome(await signIn("100.64.0.5", email, PASSWORD))).toBe("TOO_MANY_REQUESTS");
    expect(outcome(await signIn("172.16.20.30", email, PASSWORD))).toBe("SIGNED_IN");
  });

  it("bounds how long an account stays locked to the stranger's network, however many guesses", async () => {
    const email = await newAccount();
    // Guesses far past the free ones: a stored counter as if the stranger had kept going for a day.
    for (let i = 0; i < 3; i++) await signIn("100.64.9.9", email, "wrong guess");
    await server.platform.db.query(`UPDATE throttle_counter SET events = 500, locked_until = NULL WHERE key LIKE $1`, [`signin:account:${tokenHash(email.toLowerCase())}|%`]);
    await signIn("100.64.9.9", email, "wrong guess");
    const [row] = await server.platform.db.query(`SELECT locked_until FROM throttle_counter WHERE key LIKE $1`, [`signin:account:${tokenHash(email.toLowerCase())}|%`]);
    expect(new Date(row.locked_until).getTime() - Date.now()).toBeLessThanOrEqual(15 * 60 * 1000);
    expect(new Date(row.locked_until).getTime() - Date.now()).toBeGreaterThan(14 * 60 * 1000);
  });

  it("counts parallel guesses before checking them, so a burst cannot slip past the limit", async () => {
    const email = await newAccount();
    const burst = await Promise.all(Array.from({ length: 8 }, () => signIn("100.64.50.50", email, "parallel guess")));
    const outcomes = burst.map(outcome);
    expect(outcomes.filter((o) => o === "UNAUTHENTICATED")).toHaveLength(3);
    expect(outcomes.filter((o) => o === "TOO_MANY_REQUESTS")).toHaveLength(5);
  });

  it("takes as long to refuse an unknown e-mail as a wrong password", async () => {
    const email = await newAccount();
    const timed = async (address: string, who: string) => {
      const started = performance.now();
      expect(outcome(await signIn(address, who, "not the password"))).toBe("UNAUTHENTICATED");
      return performance.now() - started;
    };
    const wrong: number[] = [];
    const unknown: number[] = [];
    // Each attempt from a network of its own, alternating, so that no limit is reached and drift hits both alike.
    for (let i = 0; i < 7; i++) {
      wrong.push(await timed(`10.${i}.1.1`, email));
      unknown.push(await timed(`10.${i}.2.1`, `nobody-${i}-${Date.now()}@example.com`));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    // Without the decoy hash an unknown address is refused in a few milliseconds, a wrong password after a scrypt (~50–100 ms).
    expect(median(unknown)).toBeGreaterThan(median(wrong) * 0.6);
    expect(median(unknown)).toBeLessThan(median(wrong) * 1.6);
  });

  it("reads the client address of REST's /v1/user/login the same way", async () => {
    const email = await newAccount();
    const restSignIn = async (password: string) =>
      (
        await fetch(`${server.url}/v1/user/login`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": "100.64.77.1" },
          body: JSON.stringify({ email, password }),
        })
      ).json() as Promise<{ code: number; message: string }>;
    for (let i = 0; i < 3; i++) expect((await restSignIn("wrong password")).message).toBe("Email and password do not match!");
    expect((await restSignIn(PASSWORD)).message).toMatch(/^Too many failed sign-in attempts/);
    expect(outcome(await signIn("100.64.77.1", email, PASSWORD))).toBe("TOO_MANY_REQUESTS");
    expect(outcome(await signIn("100.64.78.1", email, PASSWORD))).toBe("SIGNED_IN");
  });

  it("reads the client address of a graphql-ws connection the same way", async () => {
    const email = await newAccount();
    class ForwardedWebSocket extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers: { "x-forwarded-for": "100.64.88.1" } });
      }
    }
    const client = createClient({ url: `${server.url.replace("http", "ws")}/graphql`, webSocketImpl: ForwardedWebSocket, retryAttempts: 0 });
    const wsSignIn = async (password: string) => {
      const iterator = client.iterate({ query: LOGIN, variables: { input: { email, password } } });
      const { value } = await iterator.next();
      await iterator.return?.();
      return outcome(value as GraphQLResponse<unknown>);
    };
    try {
      expect([await wsSignIn("wrong"), await wsSignIn("wrong"), await wsSignIn("wrong"), await wsSignIn(PASSWORD)]).toEqual([
        "UNAUTHENTICATED",
        "UNAUTHENTICATED",
        "UNAUTHENTICATED",
        "TOO_MANY_REQUESTS",
      ]);
    } finally {
      await client.dispose();
    }
    expect(outcome(await signIn("100.64.88.1", email, PASSWORD))).toBe("TOO_MANY_REQUESTS");
    expect(outcome(await signIn("100.64.89.1", email, PASSWORD))).toBe("SIGNED_IN");
  });
});

describe("a reverse proxy that TRUST_PROXY does not name", () => {
  let behindProxy: TestServer;
  beforeAll(async () => {
    // The test's requests come from loopback, which this server does not count as its proxy.
    behindProxy = await startTestServer({ TRUST_PROXY: "10.0.0.0/8", SIGNIN_FREE_ATTEMPTS: "10", SIGNIN_ADDRESS_FREE_ATTEMPTS: "2", SIGNIN_LOCK_SECONDS: "60" });
  });
  afterAll(() => behindProxy.close());

  it("has its X-Forwarded-For ignored: every client it forwards is counted as the proxy's one address", async () => {
    const email = `proxied-${Date.now()}@example.com`;
    const registered = await behindProxy.graphql(REGISTER, { input: { email, nickname: "someone", password: PASSWORD } });
    expect(registered.errors).toBeUndefined();
    const signInVia = async (address: string, password: string) => outcome(await signIn(address, email, password, behindProxy));
    expect([await signInVia("198.51.100.7", SPRAYED), await signInVia("198.51.100.7", SPRAYED)]).toEqual(["UNAUTHENTICATED", "UNAUTHENTICATED"]);
    // Another network, as the header says, but the same address to this server: locked with the first.
    expect(await signInVia("192.0.2.44", PASSWORD)).toBe("TOO_MANY_REQUESTS");
  });
});
