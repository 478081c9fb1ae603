import { In } from "typeorm";
import { credentialHolder } from "./memberships";
import { authorizeAccountAction } from "./account-guard";
import { authorize, scope, scopeSql } from "../policies";
import type { SignedIn } from "../policies/principal";
import { publishRevoked } from "./revocation";
import { FieldChecks, NotFound } from "../platform/errors";
import { newId, randomToken } from "../platform/ids";
import { tokenHash } from "../platform/secrets";
import type { Platform } from "../platform";
import { ApiToken } from "./api-token.entity";

/** RAGFlow's key format, kept so that its SDKs and scripts take our keys unchanged. */
const TOKEN_PREFIX = "ragflow-";
/** lastUsedAt is a hint for the user, written at most once a minute per key to keep reads cheap. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** The furthest expiry a key may be given: beyond it, "never" says the same more honestly. */
const MAX_LIFETIME_MS = 10 * 366 * 86_400_000;

export interface CreatedApiToken {
  apiToken: ApiToken;
  /** The only time the whole token leaves the server. */
  token: string;
}

export interface ApiTokenOptions {
  /** When the key stops working; absent or null: never. */
  expiresAt?: Date | null;
}

export class ApiTokenService {
  constructor(private readonly platform: Platform) {}

  private get tokens() {
    return this.platform.db.getRepository(ApiToken);
  }

  async create(principal: SignedIn, options: ApiTokenOptions = {}): Promise<CreatedApiToken> {
    authorizeAccountAction(principal, "manageApiKeys");
    authorize(principal, "manage", { kind: "apiToken", tenantId: principal.tenantId });
    const expiresAt = options.expiresAt ?? null;
    const valid = expiresAt === null || (!Number.isNaN(expiresAt.getTime()) && expiresAt.getTime() > Date.now() && expiresAt.getTime() - Date.now() <= MAX_LIFETIME_MS);
    new FieldChecks().check(valid, "expiresAt", "errors.apiTokenExpiryInvalid").throwIfAny();
    const token = TOKEN_PREFIX + randomToken(32);
    const apiToken = this.tokens.create({
      id: newId(),
      tenantId: principal.tenantId,
      createdBy: principal.user.id,
      tokenHash: tokenHash(token),
      hint: `${token.slice(0, TOKEN_PREFIX.length + 4)}…${token.slice(-4)}`,
      lastUsedAt: null,
      expiresAt,
    });
    await this.tokens.insert(apiToken);
    return { apiToken: await this.tokens.findOneByOrFail({ id: apiToken.id }), token };
  }

  list(principal: SignedIn): Promise<ApiToken[]> {
    const visible = scopeSql(scope(principal, "read", "apiToken"), "t");
    return this.tokens.createQueryBuilder("t").where(visible.sql, visible.params).orderBy("t.createdAt", "DESC").getMany();
  }

  async delete(principal: SignedIn, id: string): Promise<void> {
    authorizeAccountAction(principal, "manageApiKeys");
    const apiToken = await this.tokens.findOneBy({ id });
    if (!apiToken) throw NotFound("errors.apiTokenNotFound");
    authorize(principal, "delete", { kind: "apiToken", tenantId: apiToken.tenantId });
    const { affected } = await this.tokens.delete({ id });
    if (!affected) throw NotFound("errors.apiTokenNotFound");
    publishRevoked(this.platform.pubsub, [{ kind: "apiToken", id }]);
  }

  /** Deletes every key the user created, in every tenant (a password change that suspects a leak); returns how many. */
  async deleteAllCreatedBy(userId: string): Promise<number> {
    const ids = (await this.tokens.find({ select: { id: true }, where: { createdBy: userId } })).map((t) => t.id);
    if (ids.length === 0) return 0;
    await this.tokens.delete({ id: In(ids) });
    publishRevoked(this.platform.pubsub, ids.map((id) => ({ kind: "apiToken", id })));
    return ids.length;
  }

  /** The tenant and user behind an API token, or null when no such token exists or it has expired. */
  async authenticate(token: string): Promise<SignedIn | null> {
    if (!token.startsWith(TOKEN_PREFIX)) return null;
    const found = await credentialHolder(this.platform.db, "apiToken", tokenHash(token));
    if (!found || (found.expiresAt && found.expiresAt.getTime() <= Date.now()) || !found.active) return null;
    if (!found.lastUsedAt || Date.now() - found.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      await this.tokens.update({ id: found.credentialId }, { lastUsedAt: new Date() });
    }
    return { kind: "apiToken", user: found.user, tenantId: found.tenantId, memberships: found.memberships, tokenId: found.credentialId, expiresAt: found.expiresAt };
  }
}
