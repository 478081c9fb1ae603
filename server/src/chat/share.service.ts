import { IsNull, type Repository } from "typeorm";
import type { ApiTokenService } from "../auth/api-token.service";
import { authorize, can, type ShareResource } from "../policies";
import type { SharePrincipal, SignedIn } from "../policies/principal";
import { DomainError } from "../platform/errors";
import { randomToken } from "../platform/ids";
import type { Platform } from "../platform";
import { ChatAssistant } from "./assistant.entity";
import type { AssistantService } from "./assistant.service";
import { ChatShare } from "./share.entity";

/** A share link as the policy sees it. */
const shareResource = (share: ChatShare): ShareResource => ({ kind: "share", id: share.id, tenantId: share.tenantId, assistantId: share.assistantId, createdBy: share.createdBy });

/**
 * Public shares of assistants (spec §1, §6): the embed dialog's iframe, widget and extension all carry
 * the share token, and the share page sends it as its bearer credential.
 */
export class ShareService {
  private readonly shares: Repository<ChatShare>;

  constructor(
    private readonly platform: Platform,
    private readonly assistants: AssistantService,
    private readonly apiTokens: ApiTokenService,
  ) {
    this.shares = platform.db.getRepository(ChatShare);
  }

  /** The assistant's share, or null when it is not shared. */
  async get(principal: SignedIn, assistantId: string): Promise<ChatShare | null> {
    const assistant = await this.assistants.get(principal, assistantId);
    const share = await this.shares.findOneBy({ assistantId: assistant.id });
    return share && can(principal, "read", shareResource(share)) ? share : null;
  }

  /**
   * The assistant's share, created on the first request and the same afterwards. Like RAGFlow, sharing
   * needs an API token of the tenant first (spec §5: "please create API Token first").
   */
  async share(principal: SignedIn, assistantId: string): Promise<ChatShare> {
    // Publishing an assistant is changing who can reach it: the assistant's managers do it.
    const assistant = await this.assistants.get(principal, assistantId, "manage");
    if ((await this.apiTokens.list(principal)).length === 0) throw new DomainError("BAD_REQUEST", "errors.createApiTokenFirst");
    const existing = await this.shares.findOneBy({ assistantId: assistant.id });
    if (existing) return existing;
    // Two first requests at once: the unique index on assistant_id keeps one share, and both get it.
    await this.shares
      .createQueryBuilder()
      .insert()
      .values({ id: randomToken(32), tenantId: assistant.tenantId, assistantId: assistant.id, createdBy: principal.user.id })
      .orIgnore()
      .execute();
    return this.shares.findOneByOrFail({ assistantId: assistant.id });
  }

  /** Ends the share: its token stops working at once. False when the assistant was not shared. */
  async revoke(principal: SignedIn, assistantId: string): Promise<boolean> {
    const assistant = await this.assistants.get(principal, assistantId);
    const share = await this.shares.findOneBy({ assistantId: assistant.id });
    if (!share) return false;
    authorize(principal, "delete", shareResource(share));
    const { affected } = await this.shares.delete({ id: share.id });
    return (affected ?? 0) > 0;
  }

  /** The share principal of a live share token whose assistant is live, else null. */
  async authenticate(token: string): Promise<SharePrincipal | null> {
    if (token.length > 64) return null;
    const share = await this.shares.findOneBy({ id: token });
    if (!share) return null;
    const live = await this.platform.db.getRepository(ChatAssistant).existsBy({ id: share.assistantId, status: "1", binnedIn: IsNull() });
    if (!live) return null;
    return { kind: "share", tenantId: share.tenantId, assistantId: share.assistantId, shareId: share.id };
  }
}
