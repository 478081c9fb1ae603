import { NotFound } from "../platform/errors";
import { newId, randomToken } from "../platform/ids";
import { tokenHash } from "../platform/secrets";
import type { Platform } from "../platform";
import type { SignedIn } from "../auth/principal";
import { User } from "../auth/user.entity";
import { ApiToken } from "./api-token.entity";

/** RAGFlow's key format, kept so that its SDKs and scripts take our keys unchanged. */
const TOKEN_PREFIX = "ragflow-";
/** lastUsedAt is a hint for the user, written at most once a minute per key to keep reads cheap. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface CreatedApiToken {
  apiToken: ApiToken;
  /** The only time the whole token leaves the server. */
  token: string;
}

export class ApiTokenService {
  constructor(private readonly platform: Platform) {}

  private get tokens() {
    return this.platform.db.getRepository(ApiToken);
  }

  async create(principal: SignedIn): Promise<CreatedApiToken> {
    const token = TOKEN_PREFIX + randomToken(32);
    const apiToken = this.tokens.create({
      id: newId(),
      tenantId: principal.tenantId,
      createdBy: principal.user.id,
      tokenHash: tokenHash(token),
      hint: `${token.slice(0, TOKEN_PREFIX.length + 4)}…${token.slice(-4)}`,
      lastUsedAt: null,
    });
    await this.tokens.insert(apiToken);
    return { apiToken: await this.tokens.findOneByOrFail({ id: apiToken.id }), token };
  }

  list(principal: SignedIn): Promise<ApiToken[]> {
    return this.tokens.find({ where: { tenantId: principal.tenantId }, order: { createdAt: "DESC" } });
  }

  async delete(principal: SignedIn, id: string): Promise<void> {
    const { affected } = await this.tokens.delete({ id, tenantId: principal.tenantId });
    if (!affected) throw NotFound("errors.apiTokenNotFound");
  }

  /** The tenant and user behind an API token, or null when no such token exists. */
  async authenticate(token: string): Promise<SignedIn | null> {
    if (!token.startsWith(TOKEN_PREFIX)) return null;
    const apiToken = await this.tokens.findOneBy({ tokenHash: tokenHash(token) });
    if (!apiToken) return null;
    const user = await this.platform.db.getRepository(User).findOneBy({ id: apiToken.createdBy });
    if (!user || !user.isActive) return null;
    if (!apiToken.lastUsedAt || Date.now() - apiToken.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      await this.tokens.update({ id: apiToken.id }, { lastUsedAt: new Date() });
    }
    return { kind: "apiToken", user, tenantId: apiToken.tenantId, tokenId: apiToken.id };
  }
}
