import { REGISTER, startTestServer, type GraphQLResponse, type TestServer } from "../testing/app";

const POLICY = `query { signUpPolicy { open closedReason emailDomains } }`;
const PASSWORD = "correct horse battery";

let counter = 0;
const uniqueEmail = (domain: string) => `signup${++counter}-${Date.now()}@${domain}`;

/** A sign-up as a client at `address` would send it through a reverse proxy on this machine (trust proxy: loopback). */
async function signUp(server: TestServer, address: string, email: string): Promise<GraphQLResponse<{ register: { user: { id: string } } }>> {
  const response = await fetch(`${server.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address },
    body: JSON.stringify({ query: REGISTER, variables: { input: { email, nickname: "newcomer", password: PASSWORD } } }),
  });
  return (await response.json()) as GraphQLResponse<{ register: { user: { id: string } } }>;
}

describe("registration switched off", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ REGISTRATION_ENABLED: "false" });
  });
  afterAll(() => server.close());

  it("tells the sign-up page it is closed, and refuses GraphQL and REST sign-ups with a translated message", async () => {
    expect((await server.graphql(POLICY)).data).toEqual({ signUpPolicy: { open: false, closedReason: "disabled", emailDomains: [] } });
    const response = await server.graphql(REGISTER, { input: { email: uniqueEmail("example.com"), nickname: "n", password: PASSWORD } });
    expect(response.errors?.[0].extensions).toMatchObject({ code: "FORBIDDEN", messageKey: "errors.registrationDisabled" });
    const rest = await server.rest("POST", "/v1/user/register", { body: { email: uniqueEmail("example.com"), nickname: "n", password: PASSWORD } });
    expect(rest.body).toEqual({ code: 103, message: "User registration is disabled!", data: null });
    expect(await server.platform.db.query(`SELECT count(*)::int AS n FROM app_user`)).toEqual([{ n: 0 }]);
  });
});

describe("registration limited by domain, number of accounts and rate", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      REGISTRATION_EMAIL_DOMAINS: "example.org, @Team.Example.org",
      REGISTRATION_MAX_USERS: "6",
      SIGNUP_ADDRESS_FREE: "2",
      SIGNUP_NETWORK_FREE: "3",
    });
  });
  afterAll(() => server.close());

  it("accepts only the listed e-mail domains, and says which", async () => {
    expect((await server.graphql(POLICY)).data).toEqual({ signUpPolicy: { open: true, closedReason: null, emailDomains: ["example.org", "team.example.org"] } });
    const refused = await signUp(server, "192.0.2.1", uniqueEmail("example.com"));
    expect(refused.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", messageKey: "errors.emailDomainNotAllowed" });
    expect(refused.errors?.[0].message).toBe("Sign-up is limited to addresses at example.org, team.example.org.");
    const lookalike = await signUp(server, "192.0.2.1", uniqueEmail("evil-example.org"));
    expect(lookalike.errors?.[0].extensions.messageKey).toBe("errors.emailDomainNotAllowed");
    expect((await signUp(server, "192.0.2.1", uniqueEmail("TEAM.example.org"))).errors).toBeUndefined();
  });

  it("limits sign-ups per address and per network", async () => {
    expect((await signUp(server, "198.51.100.1", uniqueEmail("example.org"))).errors).toBeUndefined();
    expect((await signUp(server, "198.51.100.1", uniqueEmail("example.org"))).errors).toBeUndefined();
    const third = await signUp(server, "198.51.100.1", uniqueEmail("example.org"));
    expect(third.errors?.[0].extensions).toMatchObject({ code: "TOO_MANY_REQUESTS", messageKey: "errors.signUpThrottled" });
    expect(third.errors?.[0].extensions.params.seconds).toBeGreaterThan(500);
    // Another address of the same /24 has the network's third sign-up, then the network waits too.
    expect((await signUp(server, "198.51.100.2", uniqueEmail("example.org"))).errors).toBeUndefined();
    expect((await signUp(server, "198.51.100.3", uniqueEmail("example.org"))).errors?.[0].extensions.code).toBe("TOO_MANY_REQUESTS");
    const rest = await fetch(`${server.url}/v1/user/register`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.4" },
      body: JSON.stringify({ email: uniqueEmail("example.org"), nickname: "n", password: PASSWORD }),
    });
    expect(await rest.json()).toMatchObject({ code: 103, message: expect.stringMatching(/^Too many sign-ups from your network/) });
  });

  it("closes once the configured number of accounts exists", async () => {
    const existing = (await server.platform.db.query(`SELECT count(*)::int AS n FROM app_user`))[0].n as number;
    for (let i = existing; i < 6; i++) expect((await signUp(server, `203.0.${i}.1`, uniqueEmail("example.org"))).errors).toBeUndefined();
    const full = await signUp(server, "203.0.99.1", uniqueEmail("example.org"));
    expect(full.errors?.[0].extensions).toMatchObject({ code: "FORBIDDEN", messageKey: "errors.registrationFull" });
    expect((await server.graphql(POLICY)).data).toEqual({ signUpPolicy: { open: false, closedReason: "full", emailDomains: ["example.org", "team.example.org"] } });
    expect(await server.platform.db.query(`SELECT count(*)::int AS n FROM app_user`)).toEqual([{ n: 6 }]);
  });
});
