import { newId } from "../platform/ids";
import { LOGIN, REGISTER, signUpAndIn, startTestServer, type TestServer } from "../testing/app";
import { Identity } from "./identity/identity.entity";

const ME = `query { me { id email nickname language colorSchema timezone avatar } }`;
const LOGOUT = `mutation { logout }`;
const CHANGE_PASSWORD = `mutation Change($input: ChangePasswordInput!) { changePassword(input: $input) }`;
const UPDATE_PROFILE = `mutation Update($input: ProfileInput!) { updateProfile(input: $input) { nickname language colorSchema timezone avatar email } }`;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ SIGNIN_FREE_ATTEMPTS: "3", SIGNIN_LOCK_SECONDS: "60" });
});
afterAll(() => server.close());

function fieldsOf(response: { errors?: { extensions: Record<string, unknown> }[] }): Record<string, string> {
  const fields = (response.errors?.[0]?.extensions.fields ?? []) as { field: string; messageKey: string }[];
  return Object.fromEntries(fields.map((f) => [f.field, f.messageKey]));
}

describe("signing up", () => {
  it("creates the user with a personal tenant it owns", async () => {
    const { userId } = await signUpAndIn(server);
    const tenant = await server.platform.db.query(`SELECT id, name FROM tenant WHERE id = $1`, [userId]);
    const member = await server.platform.db.query(`SELECT role FROM tenant_member WHERE tenant_id = $1 AND user_id = $1`, [userId]);
    expect(tenant).toHaveLength(1);
    expect(tenant[0].name).toMatch(/‘s Kingdom$/);
    expect(member).toEqual([{ role: "owner" }]);
  });

  it("signs the new account in: the answer carries a session of it, as a sign-in's does", async () => {
    const email = `signed-in-${Date.now()}@example.com`;
    const response = await server.graphql<{ register: { token: string; expiresAt: string; user: { id: string; email: string } } }>(REGISTER, { input: { email, nickname: "new", password: "123456789" } });
    const { token, expiresAt, user } = response.data!.register;
    expect(user.email).toBe(email);
    expect(new Date(expiresAt).getTime()).toBeGreaterThan(Date.now());
    expect((await server.graphql<{ me: { id: string; email: string } }>(ME, {}, token)).data?.me).toMatchObject({ id: user.id, email });
  });

  it("refuses a password of 8 characters or fewer, a bad e-mail and an empty nickname, all at once", async () => {
    const response = await server.graphql(REGISTER, { input: { email: "not-an-email", nickname: " ", password: "12345678" } });
    expect(response.data).toBeNull();
    expect(response.errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", httpStatus: 400 });
    expect(fieldsOf(response)).toEqual({ email: "errors.emailInvalid", nickname: "errors.nicknameRequired", password: "errors.passwordTooShort" });
  });

  it("starts the account in the language it was created in", async () => {
    const email = `lang-${Date.now()}@example.com`;
    await server.graphql(REGISTER, { input: { email, nickname: "lang", password: "123456789", language: "zh-TRADITIONAL" } });
    const login = await server.graphql<{ login: { token: string } }>(LOGIN, { input: { email, password: "123456789" } });
    expect((await server.graphql<{ me: { language: string } }>(ME, {}, login.data!.login.token)).data?.me.language).toBe("zh-TRADITIONAL");
    const bad = await server.graphql(REGISTER, { input: { email: `x${email}`, nickname: "lang", password: "123456789", language: "klingon" } });
    expect(fieldsOf(bad)).toEqual({ language: "errors.languageInvalid" });
  });

  it("accepts a password of exactly 9 characters", async () => {
    const response = await server.graphql(REGISTER, { input: { email: `nine-${Date.now()}@example.com`, nickname: "nine", password: "123456789" } });
    expect(response.errors).toBeUndefined();
  });

  it("refuses an e-mail address that is already registered, whatever its case, and changes nothing", async () => {
    const { email } = await signUpAndIn(server);
    const before = await server.platform.db.query(`SELECT count(*)::int AS n FROM app_user`);
    const response = await server.graphql(REGISTER, { input: { email: email.toUpperCase(), nickname: "again", password: "another password" } });
    expect(response.errors?.[0].extensions).toMatchObject({ code: "CONFLICT", messageKey: "errors.emailTaken" });
    expect(response.errors?.[0].message).toBe(`Email: ${email.toUpperCase()} has already registered!`);
    expect(await server.platform.db.query(`SELECT count(*)::int AS n FROM app_user`)).toEqual(before);
  });

  it("stores a salted slow hash, never the password", async () => {
    const { userId, password } = await signUpAndIn(server);
    const [row] = await server.platform.db.query(`SELECT password_hash FROM app_user WHERE id = $1`, [userId]);
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(row.password_hash).not.toContain(password);
  });
});

describe("signing in and out", () => {
  it("gives a bearer token that identifies the user, and none without a token", async () => {
    const { token, email } = await signUpAndIn(server);
    expect((await server.graphql<{ me: { email: string } }>(ME, {}, token)).data?.me.email).toBe(email);
    const anonymous = await server.graphql(ME);
    expect(anonymous.errors?.[0].extensions).toMatchObject({ code: "UNAUTHENTICATED", httpStatus: 401, messageKey: "errors.unauthenticated" });
  });

  it("keeps a remembered session for days and a plain one for hours", async () => {
    const { email, password } = await signUpAndIn(server);
    const plain = await server.graphql<{ login: { expiresAt: string } }>(LOGIN, { input: { email, password } });
    const remembered = await server.graphql<{ login: { expiresAt: string } }>(LOGIN, { input: { email, password, remember: true } });
    const hoursLeft = (iso: string) => (new Date(iso).getTime() - Date.now()) / 3_600_000;
    expect(hoursLeft(plain.data!.login.expiresAt)).toBeCloseTo(24, 0);
    expect(hoursLeft(remembered.data!.login.expiresAt)).toBeCloseTo(30 * 24, 0);
  });

  it("answers a wrong password and an unknown address with the same message", async () => {
    const { email } = await signUpAndIn(server);
    const wrong = await server.graphql(LOGIN, { input: { email, password: "wrong password" } });
    const unknown = await server.graphql(LOGIN, { input: { email: `nobody-${Date.now()}@example.com`, password: "whatever1" } });
    expect(wrong.errors?.[0].message).toBe("Email and password do not match!");
    expect(unknown.errors?.[0].message).toBe(wrong.errors?.[0].message);
    expect(wrong.errors?.[0].extensions.code).toBe("UNAUTHENTICATED");
  });

  it("stops accepting a token once its session signs out", async () => {
    const { token } = await signUpAndIn(server);
    expect((await server.graphql(LOGOUT, {}, token)).data).toEqual({ logout: true });
    expect((await server.graphql(ME, {}, token)).errors?.[0].extensions.code).toBe("UNAUTHENTICATED");
  });

  it("keeps only a hash of session tokens", async () => {
    const { token, userId } = await signUpAndIn(server);
    const rows = await server.platform.db.query(`SELECT token_hash FROM auth_session WHERE user_id = $1`, [userId]);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.token_hash).not.toBe(token);
  });

  it("throttles an address after repeated failures, even for the right password", async () => {
    const { email, password } = await signUpAndIn(server);
    for (let i = 0; i < 3; i++) await server.graphql(LOGIN, { input: { email, password: "wrong password" } });
    const locked = await server.graphql(LOGIN, { input: { email, password } });
    expect(locked.errors?.[0].extensions).toMatchObject({ code: "TOO_MANY_REQUESTS", httpStatus: 429, messageKey: "errors.signInThrottled" });
    expect(locked.errors?.[0].extensions.params.seconds).toBeGreaterThan(50);
  });
});

describe("changing the password", () => {
  it("gives the specification's messages for a short or unconfirmed new password", async () => {
    const { token, password } = await signUpAndIn(server);
    const short = await server.graphql(CHANGE_PASSWORD, { input: { currentPassword: password, newPassword: "short", confirmPassword: "short" } }, token);
    expect(fieldsOf(short)).toEqual({ newPassword: "errors.passwordTooShort" });
    const mismatch = await server.graphql(CHANGE_PASSWORD, { input: { currentPassword: password, newPassword: "long enough one", confirmPassword: "long enough two" } }, token);
    expect(mismatch.errors?.[0].message).toBe("The new password that you entered do not match!");
    const wrongCurrent = await server.graphql(CHANGE_PASSWORD, { input: { currentPassword: "not it at all", newPassword: "long enough one", confirmPassword: "long enough one" } }, token);
    expect(fieldsOf(wrongCurrent)).toEqual({ currentPassword: "errors.currentPasswordWrong" });
  });

  it("signs out the other sessions, keeps this one, and only the new password works", async () => {
    const { token, email, password } = await signUpAndIn(server);
    const other = (await server.graphql<{ login: { token: string } }>(LOGIN, { input: { email, password } })).data!.login.token;
    const newPassword = "a brand new secret";
    const changed = await server.graphql(CHANGE_PASSWORD, { input: { currentPassword: password, newPassword, confirmPassword: newPassword } }, token);
    expect(changed.data).toEqual({ changePassword: true });
    expect((await server.graphql(ME, {}, token)).errors).toBeUndefined();
    expect((await server.graphql(ME, {}, other)).errors?.[0].extensions.code).toBe("UNAUTHENTICATED");
    expect((await server.graphql(LOGIN, { input: { email, password } })).errors?.[0].extensions.code).toBe("UNAUTHENTICATED");
    expect((await server.graphql(LOGIN, { input: { email, password: newPassword } })).errors).toBeUndefined();
  });
});

describe("changing the password with its option to revoke API keys", () => {
  const CREATE_KEY = `mutation { createApiToken { token } }`;
  const TENANT_INFO = "/v1/user/tenant_info";

  async function change(token: string, password: string, revokeApiKeys?: boolean) {
    const newPassword = `${password} renewed`;
    const input = { currentPassword: password, newPassword, confirmPassword: newPassword, ...(revokeApiKeys === undefined ? {} : { revokeApiKeys }) };
    return server.graphql(CHANGE_PASSWORD, { input }, token);
  }

  it("deletes every API key of the user when asked, and they stop working at once", async () => {
    const { token, password, userId } = await signUpAndIn(server);
    const keys = await Promise.all([1, 2].map(async () => (await server.graphql<{ createApiToken: { token: string } }>(CREATE_KEY, {}, token)).data!.createApiToken.token));
    expect((await server.rest("GET", TENANT_INFO, { token: keys[0] })).status).toBe(200);
    expect((await change(token, password, true)).data).toEqual({ changePassword: true });
    for (const key of keys) expect((await server.rest("GET", TENANT_INFO, { token: key })).status).toBe(401);
    expect(await server.platform.db.query(`SELECT id FROM api_token WHERE created_by = $1`, [userId])).toEqual([]);
    expect((await server.graphql(ME, {}, token)).errors).toBeUndefined();
  });

  it("keeps the API keys when not asked", async () => {
    const { token, password } = await signUpAndIn(server);
    const key = (await server.graphql<{ createApiToken: { token: string } }>(CREATE_KEY, {}, token)).data!.createApiToken.token;
    expect((await change(token, password)).data).toEqual({ changePassword: true });
    expect((await server.rest("GET", TENANT_INFO, { token: key })).status).toBe(200);
  });
});

describe("the profile", () => {
  it("saves username, colour schema, time zone, language and photo", async () => {
    const { token, email } = await signUpAndIn(server);
    const avatar = "data:image/png;base64,iVBORw0KGgo=";
    const response = await server.graphql(UPDATE_PROFILE, {
      input: { nickname: "Ann Lee", colorSchema: "Dark", timezone: "Asia/Shanghai", language: "zh-TRADITIONAL", avatar },
    }, token);
    expect(response.data).toEqual({ updateProfile: { nickname: "Ann Lee", colorSchema: "Dark", timezone: "Asia/Shanghai", language: "zh-TRADITIONAL", avatar, email } });
  });

  it("refuses bad values together and changes nothing", async () => {
    const { token } = await signUpAndIn(server);
    const before = await server.graphql(ME, {}, token);
    const response = await server.graphql(UPDATE_PROFILE, {
      input: { nickname: "", colorSchema: "Purple", timezone: "Mars/Olympus", language: "fr", avatar: "javascript:alert(1)" },
    }, token);
    expect(fieldsOf(response)).toEqual({
      nickname: "errors.usernameRequired",
      colorSchema: "errors.colorSchemaInvalid",
      timezone: "errors.timezoneInvalid",
      language: "errors.languageInvalid",
      avatar: "errors.avatarInvalid",
    });
    expect(await server.graphql(ME, {}, token)).toEqual(before);
  });

  it("has no way to change the e-mail address", async () => {
    const { token } = await signUpAndIn(server);
    const response = await server.graphql(UPDATE_PROFILE, { input: { email: "other@example.com" } }, token);
    expect(response.errors?.[0].extensions.code).toBe("BAD_USER_INPUT");
  });
});

describe("setting a first password (an account made by an identity provider has none)", () => {
  const HAS_PASSWORD = `query { me { hasPassword } }`;
  const UNLINK = `mutation($id: ID!) { unlinkIdentity(id: $id) }`;
  const newPassword = "a first secret of mine";

  /** As identity-provider sign-in makes one: no password, one linked identity, and a session. */
  async function providerMadeUser(): Promise<{ token: string; email: string; identityId: string }> {
    const email = `sso-${newId()}@example.com`;
    const user = await server.services.auth.register({ email, nickname: "Sso", password: null });
    const identityId = newId();
    await server.platform.db.getRepository(Identity).insert({ id: identityId, provider: "github", subject: identityId, userId: user.id, email });
    const { token } = await server.services.auth.signInVouchedFor(user, false);
    return { token, email, identityId };
  }

  /** A second session of the same account, as a sign-in elsewhere. */
  async function anotherSession(email: string): Promise<string> {
    const user = (await server.services.auth.findUserByEmail(email))!;
    return (await server.services.auth.signInVouchedFor(user, false)).token;
  }

  it("sets it without a current password, signs out the other sessions, and then lets the identity be unlinked", async () => {
    const { token, email, identityId } = await providerMadeUser();
    const other = await anotherSession(email);
    expect((await server.graphql(HAS_PASSWORD, {}, token)).data).toEqual({ me: { hasPassword: false } });
    expect((await server.graphql(UNLINK, { id: identityId }, token)).errors?.[0].extensions.messageKey).toBe("errors.sso.lastSignInMethod");

    const short = await server.graphql(CHANGE_PASSWORD, { input: { newPassword: "short", confirmPassword: "short" } }, token);
    expect(fieldsOf(short)).toEqual({ newPassword: "errors.passwordTooShort" });
    const set = await server.graphql(CHANGE_PASSWORD, { input: { newPassword, confirmPassword: newPassword } }, token);
    expect(set.data).toEqual({ changePassword: true });

    expect((await server.graphql(HAS_PASSWORD, {}, token)).data).toEqual({ me: { hasPassword: true } });
    expect((await server.graphql(ME, {}, other)).errors?.[0].extensions.code).toBe("UNAUTHENTICATED");
    expect((await server.graphql(LOGIN, { input: { email, password: newPassword } })).errors).toBeUndefined();
    expect(await server.graphql(UNLINK, { id: identityId }, token)).toEqual({ data: { unlinkIdentity: true } });
  });

  it("asks for the current password once there is one", async () => {
    const { token } = await providerMadeUser();
    await server.graphql(CHANGE_PASSWORD, { input: { newPassword, confirmPassword: newPassword } }, token);
    const again = await server.graphql(CHANGE_PASSWORD, { input: { newPassword: "taken over now", confirmPassword: "taken over now" } }, token);
    expect(fieldsOf(again)).toEqual({ currentPassword: "errors.currentPasswordRequired" });
    const { token: withPassword } = await signUpAndIn(server);
    const skipped = await server.graphql(CHANGE_PASSWORD, { input: { currentPassword: null, newPassword, confirmPassword: newPassword } }, withPassword);
    expect(fieldsOf(skipped)).toEqual({ currentPassword: "errors.currentPasswordRequired" });
  });

  it("is refused to an API key", async () => {
    const { token } = await providerMadeUser();
    const key = (await server.graphql<{ createApiToken: { token: string } }>(`mutation { createApiToken { token } }`, {}, token)).data!.createApiToken.token;
    const byKey = await server.graphql(CHANGE_PASSWORD, { input: { newPassword, confirmPassword: newPassword } }, key);
    expect(byKey.errors?.[0].extensions.messageKey).toBe("errors.apiKeyCannot.changePassword");
    expect((await server.graphql(HAS_PASSWORD, {}, token)).data).toEqual({ me: { hasPassword: false } });
  });
});
