import { generateKeyPairSync, sign, type JsonWebKey } from "node:crypto";
import { verifyIdToken, type IdTokenExpectations } from "./id-token";

const ISSUER = "https://id.example.com";
const CLIENT = "cairn";
const NONCE = "nonce-of-this-sign-in";
const NOW = 1_800_000_000;

function keyPair(kid: string) {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return { privateKey, jwk: { ...(publicKey.export({ format: "jwk" }) as JsonWebKey), kid, use: "sig" } };
}

const provider = keyPair("k1");
const stranger = keyPair("k1");

function idToken(claims: Record<string, unknown>, signer = provider.privateKey, header: Record<string, unknown> = { alg: "ES256", kid: "k1" }): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const signed = `${part(header)}.${part({ iss: ISSUER, aud: CLIENT, sub: "248289761001", exp: NOW + 300, iat: NOW, nonce: NONCE, ...claims })}`;
  return `${signed}.${sign("sha256", Buffer.from(signed), { key: signer, dsaEncoding: "ieee-p1363" }).toString("base64url")}`;
}

const expected = (overrides: Partial<IdTokenExpectations> = {}): IdTokenExpectations => ({
  issuers: [ISSUER],
  clientId: CLIENT,
  nonce: NONCE,
  keys: async () => [provider.jwk],
  nowSeconds: NOW,
  ...overrides,
});

async function refusal(token: string, overrides?: Partial<IdTokenExpectations>): Promise<unknown> {
  return verifyIdToken(token, expected(overrides)).then(
    () => "accepted",
    (error: { messageKey: string; params: { reason: string } }) => `${error.messageKey}: ${error.params.reason}`,
  );
}

describe("an OpenID Connect ID token", () => {
  it("signed by the provider, for this client and this sign-in, gives its claims", async () => {
    expect(await verifyIdToken(idToken({ email: "ada@example.com" }), expected())).toMatchObject({ sub: "248289761001", email: "ada@example.com" });
  });

  it("signed by another key than the provider's is refused (bad signature)", async () => {
    expect(await refusal(idToken({}, stranger.privateKey))).toBe("errors.sso.idTokenRefused: signature");
  });

  it("whose payload was changed after signing is refused", async () => {
    const [header, , signature] = idToken({}).split(".");
    const forged = Buffer.from(JSON.stringify({ iss: ISSUER, aud: CLIENT, sub: "admin", exp: NOW + 300, nonce: NONCE })).toString("base64url");
    expect(await refusal(`${header}.${forged}.${signature}`)).toBe("errors.sso.idTokenRefused: signature");
  });

  it("unsigned (alg none) or signed with a shared secret (HS256) is refused", async () => {
    expect(await refusal(idToken({}, provider.privateKey, { alg: "none", kid: "k1" }))).toBe("errors.sso.idTokenRefused: algorithm");
    expect(await refusal(idToken({}, provider.privateKey, { alg: "HS256", kid: "k1" }))).toBe("errors.sso.idTokenRefused: algorithm");
  });

  it("with another nonce than this sign-in's is refused (a replayed token)", async () => {
    expect(await refusal(idToken({ nonce: "someone-elses" }))).toBe("errors.sso.idTokenRefused: nonce");
    expect(await refusal(idToken({ nonce: undefined }))).toBe("errors.sso.idTokenRefused: nonce");
  });

  it("from another issuer, for another client, or expired is refused", async () => {
    expect(await refusal(idToken({ iss: "https://evil.example" }))).toBe("errors.sso.idTokenRefused: issuer");
    expect(await refusal(idToken({ aud: "another-client" }))).toBe("errors.sso.idTokenRefused: audience");
    expect(await refusal(idToken({ aud: [CLIENT, "another-client"], azp: "another-client" }))).toBe("errors.sso.idTokenRefused: audience");
    expect(await refusal(idToken({ exp: NOW - 120 }))).toBe("errors.sso.idTokenRefused: expired");
  });

  it("signed by a key the provider has just rotated in is verified after asking for its keys again", async () => {
    const rotated = keyPair("k2");
    const token = idToken({}, rotated.privateKey, { alg: "ES256", kid: "k2" });
    const keys = async (fresh: boolean) => (fresh ? [provider.jwk, rotated.jwk] : [provider.jwk]);
    expect(await refusal(token, { keys })).toBe("accepted");
    expect(await refusal(token)).toBe("errors.sso.idTokenRefused: unknownKey");
  });
});
