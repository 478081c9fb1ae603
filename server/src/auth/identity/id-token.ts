import { constants, createPublicKey, verify, type JsonWebKey, type KeyObject, type VerifyKeyObjectInput } from "node:crypto";
import { DomainError } from "../../platform/errors";

/** The ID token is not one the sign-in can trust: forged, for another client, stale, or replayed. */
export const idTokenRefused = (reason: string) => new DomainError("UNAUTHENTICATED", "errors.sso.idTokenRefused", { reason });

/** How each JWS algorithm an OpenID provider may sign with is checked by node:crypto; "none" and the HMAC ones are refused. */
const ALGORITHMS: Record<string, { hash: string | null; kty: string; options?: Omit<VerifyKeyObjectInput, "key"> }> = {
  RS256: { hash: "sha256", kty: "RSA" },
  RS384: { hash: "sha384", kty: "RSA" },
  RS512: { hash: "sha512", kty: "RSA" },
  PS256: { hash: "sha256", kty: "RSA", options: { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST } },
  PS384: { hash: "sha384", kty: "RSA", options: { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST } },
  PS512: { hash: "sha512", kty: "RSA", options: { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST } },
  ES256: { hash: "sha256", kty: "EC", options: { dsaEncoding: "ieee-p1363" } },
  ES384: { hash: "sha384", kty: "EC", options: { dsaEncoding: "ieee-p1363" } },
  ES512: { hash: "sha512", kty: "EC", options: { dsaEncoding: "ieee-p1363" } },
  EdDSA: { hash: null, kty: "OKP" },
  Ed25519: { hash: null, kty: "OKP" },
};

/** Clocks differ a little between the provider and this server. */
const CLOCK_SKEW_SECONDS = 60;

export interface IdTokenExpectations {
  /** The issuer names the token may carry (Google's tokens say "accounts.google.com" or "https://accounts.google.com"). */
  issuers: string[];
  clientId: string;
  nonce: string;
  /** The provider's signing keys; `fresh` asks again past any cache, for a key the provider has just rotated in. */
  keys(fresh: boolean): Promise<JsonWebKey[]>;
  nowSeconds?: number;
}

function decodePart(part: string | undefined): Record<string, unknown> {
  try {
    const value = JSON.parse(Buffer.from(part ?? "", "base64url").toString("utf8")) as unknown;
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // not JSON: refused below
  }
  throw idTokenRefused("malformed");
}

function keyFor(keys: JsonWebKey[], kid: unknown, kty: string): KeyObject | undefined {
  const candidates = keys.filter((key) => key.kty === kty && (key.use === undefined || key.use === "sig") && (kid === undefined || key.kid === kid));
  // Without a kid a token is only checked against a key set of one key: guessing among several is not verifying.
  const key = kid === undefined && candidates.length !== 1 ? undefined : candidates[0];
  return key ? createPublicKey({ key, format: "jwk" }) : undefined;
}

/**
 * The claims of an OpenID Connect ID token (Core §3.1.3.7): its signature by one of the provider's keys, its issuer,
 * its audience (and authorised party when there are several audiences), its expiry and the nonce of this sign-in.
 */
export async function verifyIdToken(token: string, expected: IdTokenExpectations): Promise<Record<string, unknown>> {
  const [headerPart, payloadPart, signaturePart, extra] = token.split(".");
  if (!headerPart || !payloadPart || !signaturePart || extra !== undefined) throw idTokenRefused("malformed");
  const header = decodePart(headerPart);
  const algorithm = ALGORITHMS[String(header.alg)];
  if (!algorithm) throw idTokenRefused("algorithm");
  const key = keyFor(await expected.keys(false), header.kid, algorithm.kty) ?? keyFor(await expected.keys(true), header.kid, algorithm.kty);
  if (!key) throw idTokenRefused("unknownKey");
  const signed = Buffer.from(`${headerPart}.${payloadPart}`);
  const signature = Buffer.from(signaturePart, "base64url");
  let valid = false;
  try {
    valid = verify(algorithm.hash, signed, { key, ...algorithm.options }, signature);
  } catch {
    valid = false;
  }
  if (!valid) throw idTokenRefused("signature");

  const claims = decodePart(payloadPart);
  const now = expected.nowSeconds ?? Math.floor(Date.now() / 1000);
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!expected.issuers.includes(String(claims.iss))) throw idTokenRefused("issuer");
  if (!audiences.includes(expected.clientId)) throw idTokenRefused("audience");
  if (audiences.length > 1 && claims.azp !== expected.clientId) throw idTokenRefused("audience");
  if (typeof claims.exp !== "number" || claims.exp + CLOCK_SKEW_SECONDS < now) throw idTokenRefused("expired");
  if (typeof claims.iat === "number" && claims.iat - CLOCK_SKEW_SECONDS > now) throw idTokenRefused("expired");
  if (claims.nonce !== expected.nonce) throw idTokenRefused("nonce");
  if (typeof claims.sub !== "string" || claims.sub === "") throw idTokenRefused("malformed");
  return claims;
}
